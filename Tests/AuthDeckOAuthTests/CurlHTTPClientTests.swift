import Testing
import Foundation
import AuthDeckHTTP
import AuthDeckTestSupport

/// The real libcurl client over loopback against a small fixture server.
@Suite struct CurlHTTPClientTests {
    let port = FreePort.pick()
    let server: LiveProcess
    let dir = TempDirectory("http")

    static var fixture: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../harness/http-fixture").standardized.path
    }

    init() throws {
        server = try LiveProcess(Self.fixture, [String(port)], environment: ["PATH": "/usr/bin:/bin"])
        _ = try server.waitFor("the fixture server") { $0.contains("ready") ? true : nil }
    }

    func client(_ env: [String: String] = [:]) -> CurlHTTPClient { CurlHTTPClient(userAgent: "authdeck/test", environment: env) }

    @Test func sendsFormsWithUserAgentAndReadsJSON() async throws {
        let r = try await client().send(.form("http://127.0.0.1:\(port)/echo", [("a", "1 2"), ("b", "ü&=")]))
        #expect(r.status == 200 && r.mediaType == "application/json")
        let echo = try #require(JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
        #expect(echo["method"] as? String == "POST")
        #expect(echo["body"] as? String == "a=1%202&b=%C3%BC%26%3D")
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["User-Agent"] == "authdeck/test")
        #expect(headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func aLargeBodyIsRefusedWithAClearError() async throws {
        var request = HTTPRequest(url: "http://127.0.0.1:\(port)/big?n=\(2 << 20)")
        request.maxResponseBytes = 1 << 20
        await #expect(throws: HTTPError.responseTooLarge(host: "127.0.0.1", limit: 1 << 20)) { try await client().send(request) }
        request.url = "http://127.0.0.1:\(port)/big?n=1000"
        #expect(try await client().send(request).body.count == 1000)
    }

    @Test func aTricklingServerTimesOut() async throws {
        var request = HTTPRequest(url: "http://127.0.0.1:\(port)/slow")
        request.timeout = 2
        // The timeout error itself is the proof: the body would take 30 s to arrive.
        await #expect(throws: HTTPError.timedOut(host: "127.0.0.1", seconds: 2)) { try await client().send(request) }
    }

    @Test func nothingListeningIsATransientTransportError() async throws {
        do {
            _ = try await client().send(HTTPRequest(url: "http://127.0.0.1:\(FreePort.pick())/"))
            Issue.record("connected to nothing")
        } catch let e as HTTPError {
            #expect(e.isTransient)
        }
    }

    /// Issue 39 item 7: an https URL to a plain-http server said "does the server require a
    /// client certificate?"; it says the server spoke plain http.
    @Test func aPlainHTTPAnswerToTLSIsNamedAsPlainHTTP() async throws {
        do {
            _ = try await client().send(HTTPRequest(url: "https://127.0.0.1:\(port)/echo"))
            Issue.record("a TLS request to a plain-http server succeeded")
        } catch let e as HTTPError {
            #expect(e.description == "the server at 127.0.0.1 answered in plain http, not TLS: use an http:// URL only for "
                    + "this machine's loopback, or the server's https port", "\(e)")
            #expect(!e.isTransient, "\(e)")
            #expect(!e.description.contains("client certificate"), "\(e)")
        }
    }

    /// A trial met a plain-http server that drops a ClientHello without answering (the
    /// emulator does): OpenSSL says only SSL_ERROR_SYSCALL, and the message asked about client
    /// certificates alone. It names plain http as the other likely cause.
    @Test func aHandshakeTheServerClosesNamesPlainHTTPToo() async throws {
        let closing = FreePort.pick()
        let server = try LiveProcess("/usr/bin/python3", ["-c", """
            import socket, sys
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", \(closing))); s.listen(4); print("ready", flush=True)
            while True:
                c, _ = s.accept(); c.recv(4096); c.close()
            """], environment: ["PATH": "/usr/bin:/bin"])
        _ = try server.waitFor("the closing server") { $0.contains("ready") ? true : nil }
        do {
            _ = try await client().send(HTTPRequest(url: "https://127.0.0.1:\(closing)/"))
            Issue.record("a handshake with a closing server succeeded")
        } catch let e as HTTPError {
            #expect(e.description.contains("closed the connection during the TLS handshake"), "\(e)")
            #expect(e.description.contains("plain http") && e.description.contains("client certificate"), "\(e)")
        }
    }

    @Test func aSelfSignedCertificateFailsVerification() async throws {
        let key = dir.file("k.pem"), cert = dir.file("c.pem")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        let tlsPort = FreePort.pick()
        let tls = try LiveProcess(Self.fixture, [String(tlsPort), cert, key], environment: ["PATH": "/usr/bin:/bin"])
        _ = try tls.waitFor("the TLS fixture") { $0.contains("ready") ? true : nil }
        do {
            _ = try await client().send(HTTPRequest(url: "https://127.0.0.1:\(tlsPort)/echo"))
            Issue.record("a self-signed certificate was accepted")
        } catch let e as HTTPError {
            guard case .tlsVerification = e else { Issue.record("\(e)"); return }
            #expect(!e.isTransient)
        }
        // Trusting that certificate explicitly (a provider's ca_file) makes it work.
        var trusted = HTTPRequest(url: "https://127.0.0.1:\(tlsPort)/echo")
        trusted.tls.caFile = cert
        #expect(try await client().send(trusted).status == 200)
    }

    @Test func proxyVariablesAreHonouredInBothSpellings() async throws {
        for name in ["http_proxy", "HTTP_PROXY"] {
            let r = try await client([name: "http://127.0.0.1:\(port)"]).send(HTTPRequest(url: "http://idp.invalid/echo"))
            let echo = try #require(JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
            #expect(echo["target"] as? String == "http://idp.invalid/echo", "\(name)")
        }
        // NO_PROXY sends it direct (and idp.invalid does not resolve).
        await #expect(throws: HTTPError.self) {
            try await client(["HTTP_PROXY": "http://127.0.0.1:\(port)", "NO_PROXY": "idp.invalid"]).send(HTTPRequest(url: "http://idp.invalid/echo"))
        }
    }

    /// Issue 38: this machine's own addresses never go through a proxy — plain http is allowed
    /// there only because nothing leaves the machine (a proxy read a refresh token sent to
    /// `http://[::1]`, which a usual `no_proxy` does not name).
    @Test func loopbackNeverGoesThroughAProxy() async throws {
        let proxied = client(["http_proxy": "http://127.0.0.1:\(port)", "no_proxy": "example.com"])
        for host in ["127.0.0.1", "localhost"] {
            let r = try await proxied.send(HTTPRequest(url: "http://\(host):\(port)/echo"))
            let echo = try #require(JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
            #expect(echo["target"] as? String == "/echo", "\(host) went through the proxy: \(String(describing: echo["target"]))")
        }
    }

    @Test func theCookieEngineImportsAndExportsNetscapeJars() async throws {
        // Sending: a jar line reaches the server as a Cookie header.
        let line = "127.0.0.1\tFALSE\t/\tFALSE\t0\tSession\tabc"
        let sent = try await client().send(HTTPRequest(url: "http://127.0.0.1:\(port)/echo", cookieJar: [line]))
        let echo = try #require(JSONSerialization.jsonObject(with: Data(sent.body)) as? [String: Any])
        #expect((echo["headers"] as? [String: String])?["Cookie"] == "Session=abc")
        // Receiving: Set-Cookie lands in the jar; a cookie for another domain is refused by curl.
        let got = try await client().send(HTTPRequest(url: "http://127.0.0.1:\(port)/setcookie", cookieJar: []))
        let jar = try #require(got.cookieJar)
        #expect(jar.contains { $0.hasSuffix("\trtFa\trtfa-value") })
        #expect(jar.contains { $0.contains("\tFedAuth\tfed-value") })
        #expect(!jar.contains { $0.contains("Stray") })
        #expect(got.headers(named: "Set-Cookie").count == 3)
    }

    /// Sixteen requests that each stay open 2 s at the server: the server sees several open at
    /// once (one transfer per thread, none waiting for another), whatever the machine's load.
    @Test func manyRequestsRunConcurrently() async throws {
        let c = client()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 { group.addTask { try await c.send(HTTPRequest(url: "http://127.0.0.1:\(port)/hold")).status } }
            for try await status in group { #expect(status == 200) }
        }
        let held = try await c.send(HTTPRequest(url: "http://127.0.0.1:\(port)/held"))
        let most = try #require(JSONSerialization.jsonObject(with: Data(held.body)) as? [String: Int])["most"] ?? 0
        #expect(most >= 4, "at most \(most) requests were open at once")
    }
}
