import Testing
import Foundation
import AuthDeckCore
import AuthDeckOAuth
@testable import AuthDeckApp
#if canImport(Glibc)
import Glibc
#endif

/// The sign-in window's DevTools pipe over real pipes, with the browser's side written by the
/// test: answers are matched by id through events and junk, errors and a closed browser are
/// told apart, and `Storage.getCookies`'s answer becomes authdeck's cookies.
@Suite struct DevToolsPipeTests {
    /// The pipe as authdeck holds it, and the browser's ends: what it reads (fd 3) and writes (fd 4).
    final class Browser {
        let pipe: DevToolsPipe
        let reads: Int32
        private(set) var writes: Int32

        init() throws {
            var toBrowser: [Int32] = [0, 0], fromBrowser: [Int32] = [0, 0]
            try #require(Glibc.pipe(&toBrowser) == 0 && Glibc.pipe(&fromBrowser) == 0)
            pipe = DevToolsPipe(output: toBrowser[1], input: fromBrowser[0])
            (reads, writes) = (toBrowser[0], fromBrowser[1])
        }

        /// Messages as the browser writes them: each ended by a NUL.
        func say(_ messages: String...) {
            let bytes = Array(messages.map { $0 + "\u{0}" }.joined().utf8)
            #expect(bytes.withUnsafeBytes { write(writes, $0.baseAddress!, $0.count) } == bytes.count)
        }

        /// What authdeck sent, as far as it has been written.
        func heard() -> String {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(reads, &buffer, buffer.count)
            return String(decoding: buffer[0..<max(0, n)], as: UTF8.self)
        }

        /// The browser gone: authdeck reads end of file.
        func closeBrowsersEnd() {
            _ = Glibc.close(writes)
            writes = -1
        }

        deinit {
            pipe.close()
            _ = Glibc.close(reads)
            if writes >= 0 { _ = Glibc.close(writes) }
        }
    }

    func soon(_ seconds: Double = 5) -> Date { Date().addingTimeInterval(seconds) }

    @Test func anAnswerIsFoundByItsIdAmongEventsAndJunk() throws {
        let browser = try Browser()
        browser.say("{\"method\":\"Page.loadEventFired\",\"params\":{}}", "not json", "{\"id\":7,\"result\":{\"stale\":true}}",
                    "{\"id\":1,\"result\":{\"cookies\":[{\"name\":\"FedAuth\",\"value\":\"v\",\"domain\":\"contoso.sharepoint.com\"}]}}")
        let result = try #require(try browser.pipe.call("Storage.getCookies", before: soon()))
        #expect(result.array("cookies")?.count == 1)
        let heard = browser.heard()
        #expect(heard.hasSuffix("\u{0}"), "one message, ended by a NUL")
        let sent = try #require(JSONObject(bytes: Array(heard.utf8.dropLast())))
        #expect(sent.integer("id") == 1 && sent.string("method") == "Storage.getCookies" && sent.object("params") == JSONObject([:]))
    }

    @Test func anErrorAnswerIsTheBrowsersRefusalAndSilenceIsNil() throws {
        let browser = try Browser()
        browser.say("{\"id\":1,\"error\":{\"code\":-32601,\"message\":\"'Storage.getCookies' wasn't found\"}}")
        let refused = #expect(throws: DevToolsPipe.Refused.self) { try browser.pipe.call("Storage.getCookies", before: soon()) }
        #expect(refused?.description == "the browser refused Storage.getCookies: 'Storage.getCookies' wasn't found")
        #expect(try browser.pipe.call("Storage.getCookies", before: soon(0.2)) == nil, "no answer before the deadline")
        browser.closeBrowsersEnd()
        #expect(throws: DevToolsPipe.Closed.self) { try browser.pipe.call("Storage.getCookies", before: soon()) }
    }

    /// Session cookies have no expiry; an expiry no date can hold is read as none; elements
    /// that are not cookies are left out; flags are JSON booleans only.
    @Test func theCookiesAnswerBecomesAuthdecksCookies() throws {
        let answer = """
            [{"name":"FedAuth","value":"f","domain":"contoso.sharepoint.com","path":"/","expires":1800003600.75,"session":false,
              "secure":true,"httpOnly":true},
             {"name":"rtFa","value":"r","domain":".sharepoint.com","expires":-1,"session":true,"secure":1},
             {"name":"far","value":"x","domain":"contoso.sharepoint.com","expires":1e300},
             "not a cookie", {"name":"no domain","value":"x"}]
            """
        let list = try #require(try JSONParser.parse(Array(answer.utf8)).array)
        let cookies = BrowserWindow.cookies(list)
        #expect(cookies.map(\.name) == ["FedAuth", "rtFa", "far"])
        #expect(cookies[0].expiresAt == Instant(secondsSinceEpoch: 1_800_003_600) && cookies[0].secure && cookies[0].httpOnly)
        #expect(cookies[0].value.exposedValue == "f" && cookies[0].domain == "contoso.sharepoint.com")
        #expect(cookies[1].expiresAt == nil && cookies[1].path == "/" && !cookies[1].secure, "the number 1 is not a boolean")
        #expect(cookies[2].expiresAt == nil)
    }
}
