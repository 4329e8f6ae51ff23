import AuthDeckCore

/// One HTTP request as authdeck sends it: explicit timeouts and a response-size cap, never
/// an option to skip TLS verification.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]?
    /// Seconds for the whole exchange, including a server that trickles bytes.
    public var timeout: Double
    public var connectTimeout: Double
    /// A body larger than this is an error, not a truncation.
    public var maxResponseBytes: Int
    public var tls: TLSOptions
    /// Cookies to load into libcurl's cookie engine before the request, as Netscape jar
    /// lines; nil leaves the engine off. With the engine on, the response carries every
    /// cookie the engine holds afterwards (those sent plus those the server set).
    public var cookieJar: [String]?
    /// When set, a body the stream accepts is written through it instead of collected, and
    /// `maxResponseBytes` does not apply to it.
    public var bodyStream: BodyStream?
    /// The secrets the request carries and the home they are bound to, as the sender knows
    /// them; nil lets `send` infer a passage without a home from the request itself.
    public var passage: SecretPassage?

    public init(method: String = "GET", url: String, headers: [HTTPHeader] = [], body: [UInt8]? = nil,
                timeout: Double = 30, connectTimeout: Double = 10, maxResponseBytes: Int = 1 << 20,
                tls: TLSOptions = TLSOptions(), cookieJar: [String]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxResponseBytes = maxResponseBytes
        self.tls = tls
        self.cookieJar = cookieJar
    }

    /// A form POST (`application/x-www-form-urlencoded`), the body of every OAuth grant.
    public static func form(_ url: String, _ fields: [(String, String)], headers: [HTTPHeader] = []) -> HTTPRequest {
        HTTPRequest(method: "POST", url: url,
                    headers: headers + [HTTPHeader("Content-Type", "application/x-www-form-urlencoded"),
                                        HTTPHeader("Accept", "application/json")],
                    body: Array(FormEncoding.encode(fields).utf8))
    }
}

extension HTTPRequest {
    /// Form fields whose values are secrets of these kinds.
    static let secretFields: [String: SecretKind] = [
        "refresh_token": .refreshToken, "client_secret": .clientSecret, "client_assertion": .clientAssertion,
        "assertion": .grantCode, "password": .password, "access_token": .accessToken, "token": .accessToken,
        "input_token": .accessToken, "fb_exchange_token": .accessToken, "code": .grantCode, "device_code": .grantCode,
        "code_verifier": .grantCode, "oracle_pre_authz_code": .grantCode,
    ]

    /// The passage `send` checks: the declared one, else one inferred from what the request
    /// carries (an `Authorization` or `Cookie` header, a cookie jar, a secret form or query
    /// field), held to the transport rule; nil for a request that carries no credential.
    public var effectivePassage: SecretPassage? {
        if let passage { return passage }
        var kinds: Set<SecretKind> = []
        for h in headers {
            switch h.name.lowercased() {
            case "authorization", "proxy-authorization": kinds.insert(.accessToken)
            case "cookie": kinds.insert(.cookie)
            default: break
            }
        }
        if cookieJar?.isEmpty == false { kinds.insert(.cookie) }
        var fields: [(String, String)] = []
        if let query = url.split(separator: "?", maxSplits: 1).dropFirst().first { fields += FormEncoding.decode(String(query)) ?? [] }
        if let body, headers.contains(where: { $0.name.lowercased() == "content-type" && $0.value.hasPrefix("application/x-www-form-urlencoded") }) {
            fields += FormEncoding.decode(String(decoding: body, as: UTF8.self)) ?? []
        }
        for (name, _) in fields { if let kind = Self.secretFields[name] { kinds.insert(kind) } }
        return kinds.isEmpty ? nil : SecretPassage(kinds)
    }

    /// A JSON POST of an already-encoded body.
    public static func json(_ url: String, _ body: [UInt8], method: String = "POST", headers: [HTTPHeader] = []) -> HTTPRequest {
        HTTPRequest(method: method, url: url,
                    headers: headers + [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json")],
                    body: body)
    }
}

/// A request or response header; names compare case-insensitively.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// TLS settings a provider may add. Verification itself is always on: there is no field
/// to turn it off, on purpose.
public struct TLSOptions: Sendable, Equatable {
    /// A CA bundle (PEM) to trust instead of the system store, as `curl --cacert` does.
    public var caFile: String?
    /// A client certificate and key (PEM) for mutual TLS.
    public var clientCertificateFile: String?
    public var clientKeyFile: String?
    /// A client certificate held in memory (from the store): PEM certificate + key, or a
    /// PKCS#12 bundle with its password. Passed to libcurl as blobs, never as files.
    public var clientIdentity: ClientIdentity?

    public init(caFile: String? = nil, clientCertificateFile: String? = nil, clientKeyFile: String? = nil,
                clientIdentity: ClientIdentity? = nil) {
        self.caFile = caFile
        self.clientCertificateFile = clientCertificateFile
        self.clientKeyFile = clientKeyFile
        self.clientIdentity = clientIdentity
    }
}

/// A client certificate for mutual TLS, in memory.
public enum ClientIdentity: Sendable, Equatable {
    case pem(certificate: [UInt8], key: Secret)
    case pkcs12(bundle: Secret, password: Secret?)
}
