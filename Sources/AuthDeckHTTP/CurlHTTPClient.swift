import Foundation
import CCurl
import AuthDeckCore

/// `HTTPClient` over libcurl: one easy handle per request, each on a thread of its own so any
/// number of requests can be in flight (bulk renewal bounds them itself). Not GCD's global
/// queue: on this 2-core machine it ran about six blocking transfers at a time, so 32
/// renewals waiting on a slow provider went six by six. A thread costs microseconds; a
/// provider round trip, tens of milliseconds.
///
/// Every request: TLS peer and host verification on; redirects not followed (an OAuth
/// endpoint that redirects is a misconfiguration, and credentials must not follow a
/// redirect to another host); only http and https; `User-Agent: authdeck/<version>`;
/// the proxy variables `http_proxy`/`HTTP_PROXY`, `https_proxy`/`HTTPS_PROXY`, `no_proxy`/`NO_PROXY`.
public struct CurlHTTPClient: HTTPClient {
    public let userAgent: String
    let environment: [String: String]

    public init(userAgent: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.userAgent = userAgent
        self.environment = environment
    }

    public func transmit(_ request: HTTPRequest) async throws -> HTTPResponse {
        try CurlLibrary.loadForHTTP()
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try perform(request) }) }
            thread.name = "authdeck.curl"
            thread.start()
        }
    }

    /// The blocking transfer; private to the client so that nothing sends past `send`'s gate.
    func perform(_ request: HTTPRequest) throws -> HTTPResponse {
        try CurlLibrary.loadForHTTP()
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host else {
            throw HTTPError.invalidURL(request.url)
        }
        guard let handle = ad_curl_easy_init() else { throw HTTPError.unavailable("curl_easy_init failed") }
        let sink = ResponseSink(limit: request.maxResponseBytes, stream: request.bodyStream)
        let sinkRef = Unmanaged.passRetained(sink)
        var headerList: UnsafeMutablePointer<curl_slist>?
        // The handle goes first, then what it points at: the header list and the sink stay
        // valid for as long as the handle exists (the other order left it pointing at freed
        // memory for the length of its cleanup).
        defer {
            ad_curl_easy_cleanup(handle)
            ad_curl_slist_free_all(headerList)
            sinkRef.release()
        }

        func set(_ option: CURLoption, _ value: Int) { _ = ad_curl_setopt_long(handle, Int32(option.rawValue), value) }
        func set(_ option: CURLoption, _ value: String) { _ = ad_curl_setopt_string(handle, Int32(option.rawValue), value) }

        set(CURLOPT_URL, request.url)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_SSL_VERIFYPEER, 1)
        set(CURLOPT_SSL_VERIFYHOST, 2)
        set(CURLOPT_USERAGENT, userAgent)
        set(CURLOPT_ACCEPT_ENCODING, "")
        set(CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000))
        set(CURLOPT_TIMEOUT_MS, Int(request.timeout * 1000))
        if request.bodyStream == nil {
            _ = ad_curl_setopt_offt(handle, Int32(CURLOPT_MAXFILESIZE_LARGE.rawValue), curl_off_t(request.maxResponseBytes))
        }
        if let ca = request.tls.caFile { set(CURLOPT_CAINFO, ca) }
        if let cert = request.tls.clientCertificateFile { set(CURLOPT_SSLCERT, cert) }
        if let key = request.tls.clientKeyFile { set(CURLOPT_SSLKEY, key) }
        switch request.tls.clientIdentity {
        case .pem(let certificate, let key):
            set(CURLOPT_SSLCERTTYPE, "PEM")
            certificate.withUnsafeBytes { _ = ad_curl_setopt_blob(handle, Int32(CURLOPT_SSLCERT_BLOB.rawValue), $0.baseAddress, $0.count) }
            Array(key.exposedValue.utf8).withUnsafeBytes { _ = ad_curl_setopt_blob(handle, Int32(CURLOPT_SSLKEY_BLOB.rawValue), $0.baseAddress, $0.count) }
        case .pkcs12(let bundle, let password):
            set(CURLOPT_SSLCERTTYPE, "P12")
            let raw = Array(Data(base64Encoded: bundle.exposedValue) ?? Data())
            raw.withUnsafeBytes { _ = ad_curl_setopt_blob(handle, Int32(CURLOPT_SSLCERT_BLOB.rawValue), $0.baseAddress, $0.count) }
            if let password { set(CURLOPT_KEYPASSWD, password.exposedValue) }
        case nil:
            break
        }
        applyProxy(scheme: scheme, host: host, set: { set($0, $1) })
        if let jar = request.cookieJar {
            set(CURLOPT_COOKIEFILE, "")  // turns the engine on without reading a file
            for line in jar where !line.isEmpty { set(CURLOPT_COOKIELIST, line) }
        }

        switch request.method.uppercased() {
        case "GET": set(CURLOPT_HTTPGET, 1)
        case "POST": set(CURLOPT_POST, 1)
        default: set(CURLOPT_CUSTOMREQUEST, request.method.uppercased())
        }
        if let body = request.body {
            set(CURLOPT_POSTFIELDSIZE, body.count)
            if body.isEmpty {
                set(CURLOPT_COPYPOSTFIELDS, "")
            } else {
                body.withUnsafeBytes { raw in
                    _ = ad_curl_setopt_pointer(handle, Int32(CURLOPT_COPYPOSTFIELDS.rawValue), UnsafeMutableRawPointer(mutating: raw.baseAddress!))
                }
            }
        }
        // "Expect: 100-continue" only adds a round trip for small OAuth bodies.
        for header in request.headers + [HTTPHeader("Expect", "")] {
            headerList = ad_curl_slist_append(headerList, header.value.isEmpty ? "\(header.name):" : "\(header.name): \(header.value)")
        }
        _ = ad_curl_setopt_pointer(handle, Int32(CURLOPT_HTTPHEADER.rawValue), UnsafeMutableRawPointer(headerList))
        _ = ad_curl_setopt_data_fn(handle, Int32(CURLOPT_WRITEFUNCTION.rawValue), curlWriteBody)
        _ = ad_curl_setopt_pointer(handle, Int32(CURLOPT_WRITEDATA.rawValue), sinkRef.toOpaque())
        _ = ad_curl_setopt_data_fn(handle, Int32(CURLOPT_HEADERFUNCTION.rawValue), curlWriteHeader)
        _ = ad_curl_setopt_pointer(handle, Int32(CURLOPT_HEADERDATA.rawValue), sinkRef.toOpaque())

        let code = ad_curl_easy_perform(handle)
        if code != 0 {
            if sink.streamFailed {
                throw HTTPError.transport(code: Int(code), message: "the response could not be written out", host: host)
            }
            if sink.overflowed || code == Int32(CURLE_FILESIZE_EXCEEDED.rawValue) {
                throw HTTPError.responseTooLarge(host: host, limit: request.maxResponseBytes)
            }
            var message = String(cString: ad_curl_easy_strerror(code))
            var detail: UnsafePointer<CChar>?
            if ad_curl_errorbuffer(handle, &detail) == 0, let detail, detail.pointee != 0 { message = String(cString: detail) }
            let presented = request.tls.clientIdentity != nil || request.tls.clientCertificateFile != nil
            switch UInt32(code) {
            case CURLE_OPERATION_TIMEDOUT.rawValue:
                throw HTTPError.timedOut(host: host, seconds: request.timeout)
            case CURLE_PEER_FAILED_VERIFICATION.rawValue, CURLE_SSL_CACERT_BADFILE.rawValue:
                throw HTTPError.tlsVerification(message: message, host: host)
            case CURLE_SSL_CERTPROBLEM.rawValue:
                // Our side failed, not the server: the identity's own check names why.
                var cause = message
                do throws(ClientIdentityProblem) { _ = try request.tls.clientIdentity?.open() } catch { cause = error.description }
                throw HTTPError.clientCertificate(cause: cause, host: host)
            case CURLE_SSL_CONNECT_ERROR.rawValue where HTTPError.isPlainHTTPAnswer(message):
                throw HTTPError.plainHTTPAnswer(host: host)
            case CURLE_SSL_CONNECT_ERROR.rawValue:
                throw HTTPError.tlsRefused(message: message, host: host, presentedCertificate: presented)
            case CURLE_RECV_ERROR.rawValue where scheme == "https" && message.contains("SSL"):
                throw HTTPError.tlsRefused(message: message, host: host, presentedCertificate: presented)
            default:
                throw HTTPError.transport(code: Int(code), message: message, host: host)
            }
        }
        var status = 0
        _ = ad_curl_getinfo_long(handle, Int32(CURLINFO_RESPONSE_CODE.rawValue), &status)
        var jar: [String]?
        if request.cookieJar != nil {
            var list: UnsafeMutablePointer<curl_slist>?
            _ = ad_curl_getinfo_slist(handle, Int32(CURLINFO_COOKIELIST.rawValue), &list)
            defer { ad_curl_slist_free_all(list) }
            var lines: [String] = []
            var node = list
            while let n = node {
                if let data = n.pointee.data { lines.append(String(cString: data)) }
                node = n.pointee.next
            }
            jar = lines
        }
        return HTTPResponse(status: status, headers: sink.headers, body: sink.body, cookieJar: jar)
    }

    /// libcurl reads only the lowercase `http_proxy` (uppercase is ignored against
    /// "httpoxy"); authdeck is not a CGI program, so it honours both spellings.
    ///
    /// This machine's own addresses never go through a proxy: plain http is allowed there only
    /// because nothing leaves the machine, and a proxy would carry a refresh token or password
    /// across the network in clear (`[::1]` slipped past a usual `no_proxy=localhost,127.0.0.1`).
    func applyProxy(scheme: String, host: String, set: (CURLoption, String) -> Void) {
        func env(_ name: String) -> String? {
            (environment[name.lowercased()] ?? environment[name.uppercased()]).flatMap { $0.isEmpty ? nil : $0 }
        }
        if TransportSecurity.isLoopback(host: host) {
            set(CURLOPT_PROXY, "")
            return
        }
        if let proxy = env(scheme == "https" ? "https_proxy" : "http_proxy") ?? env("all_proxy") {
            set(CURLOPT_PROXY, proxy)
        } else {
            set(CURLOPT_PROXY, "")
        }
        if let noProxy = env("no_proxy") { set(CURLOPT_NOPROXY, noProxy) }
    }
}

/// Collects a response as libcurl delivers it, enforcing the size cap, or hands the body to
/// a `BodyStream` when the stream accepts the response's status and headers.
// @unchecked: a C boundary — libcurl calls it through a raw pointer on the transfer's one thread.
final class ResponseSink: @unchecked Sendable {
    let limit: Int
    let stream: BodyStream?
    var body: [UInt8] = []
    var headers: [HTTPHeader] = []
    var status = 0
    var overflowed = false
    var streamFailed = false
    /// Decided at the first body byte: nil before, then whether this body is streamed.
    var streaming: Bool?

    init(limit: Int, stream: BodyStream? = nil) {
        self.limit = limit
        self.stream = stream
    }

    /// Takes one chunk of body; false aborts the transfer.
    func take(_ chunk: UnsafeRawBufferPointer) -> Bool {
        if streaming == nil { streaming = stream.map { $0.accept(status, headers) } ?? false }
        if streaming == true, let stream {
            if stream.deliver(chunk) { return true }
            streamFailed = true
            return false
        }
        if body.count + chunk.count > limit {
            overflowed = true
            return false
        }
        body.append(contentsOf: chunk)
        return true
    }

    func header(line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            headers.removeAll()  // a new response (after 100 Continue or a proxy CONNECT)
            status = trimmed.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else if let colon = trimmed.firstIndex(of: ":") {
            headers.append(HTTPHeader(String(trimmed[..<colon]),
                                      trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
    }
}

private let curlWriteBody: ad_curl_data_fn = { ptr, size, count, userdata in
    guard let ptr, let userdata else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(userdata).takeUnretainedValue()
    let n = size * count
    return sink.take(UnsafeRawBufferPointer(start: ptr, count: n)) ? n : 0
}

private let curlWriteHeader: ad_curl_data_fn = { ptr, size, count, userdata in
    guard let ptr, let userdata else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(userdata).takeUnretainedValue()
    let n = size * count
    let line = ptr.withMemoryRebound(to: UInt8.self, capacity: n) { String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self) }
    sink.header(line: line)
    return n
}
