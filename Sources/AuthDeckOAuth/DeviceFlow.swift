import Foundation
import AuthDeckCore
import AuthDeckHTTP

/// The device authorization grant (RFC 8628): for machines with no browser (SSH, headless).
public struct DeviceFlow: Sendable {
    /// A started device authorization: what to show and what to poll with.
    public struct Authorization: Sendable {
        public var deviceCode: Secret
        public var userCode: String
        public var verificationURI: String
        public var verificationURIComplete: String?
        public var expiresIn: Int64
        public var interval: Int64
        public var message: String?
        /// When the code was issued: it expires `expiresIn` seconds after this, however
        /// late polling starts.
        public var issuedAt: Instant
    }

    public let deviceEndpoint: String
    public let token: TokenEndpoint
    public let scopes: [String]
    public var extraFields: [(String, String)]
    public let sleeper: any Sleeper
    public let clock: any WallClock

    public init(deviceEndpoint: String, token: TokenEndpoint, scopes: [String], extraFields: [(String, String)] = [],
                sleeper: any Sleeper = TaskSleeper(), clock: any WallClock) {
        self.deviceEndpoint = deviceEndpoint
        self.token = token
        self.scopes = scopes
        self.extraFields = extraFields
        self.sleeper = sleeper
        self.clock = clock
    }

    /// Requests a device code. A missing `interval` means 5 s (RFC 8628 §3.2).
    public func start() async throws -> Authorization {
        let now = clock.now()
        let authed = try token.client.authenticate([("scope", scopes.joined(separator: " "))] + extraFields,
                                                   endpoint: deviceEndpoint, now: now)
        let response = try await TokenEndpoint.send(
            HTTPRequest.form(deviceEndpoint, authed.fields, headers: authed.headers + token.extraHeaders), via: token.http)
        let host = URL(string: deviceEndpoint)?.host ?? deviceEndpoint
        guard (200..<300).contains(response.status) else {
            throw token.failure(for: response, grant: .deviceCode, host: host, secrets: authed.secrets)
        }
        func bad(_ what: String) -> AuthFailure {
            AuthFailure(.misconfigured, code: "bad_response", remedy: "\(host) answered the device request with \(what)")
        }
        guard let json = JSONObject(bytes: response.body) else { throw bad("something that is not JSON") }
        guard let deviceCode = json.string("device_code"), let userCode = json.string("user_code") else {
            throw bad("no device_code or user_code")
        }
        // Google and older drafts say verification_url.
        guard let uri = json.string("verification_uri") ?? json.string("verification_url") else {
            throw bad("no verification_uri")
        }
        let interval = json.integer("interval") ?? json.string("interval").flatMap { Int64($0) } ?? 5
        let expiresIn = json.integer("expires_in") ?? json.string("expires_in").flatMap { Int64($0) } ?? 900
        return Authorization(deviceCode: Secret(deviceCode), userCode: userCode, verificationURI: uri,
                             verificationURIComplete: json.string("verification_uri_complete"),
                             expiresIn: max(1, expiresIn), interval: min(max(1, interval), 60), message: json.string("message"),
                             issuedAt: now)
    }

    /// Polls until the user approves, declines, the code expires or `timeout` (from now) runs
    /// out; `presenter` hears when the provider stops answering and when it answers again.
    public func poll(_ authorization: Authorization, timeout: TimeSpan? = nil, presenter: (any SignInPresenter)? = nil) async throws -> TokenSet {
        let deadline = authorization.issuedAt + .seconds(authorization.expiresIn)
        let wait = DeviceWait(timeout: timeout, now: clock.now())
        var interval = Double(authorization.interval)
        var outage = PollOutage()
        while true {
            try await sleeper.sleep(seconds: wait.nap(interval, now: clock.now()))
            do { try wait.check(now: clock.now()) } catch { throw outage.ending(error) }
            guard clock.now() < deadline else {
                throw outage.ending(AuthFailure(.needsInteraction, code: "expired_token",
                                                remedy: "the code expired before it was approved; start the sign-in again"))
            }
            do {
                return try await token.request(
                    [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                     ("device_code", authorization.deviceCode.exposedValue)],
                    grant: .deviceCode, secrets: [authorization.deviceCode.exposedValue], now: clock.now())
            } catch let failure as AuthFailure {
                // A network error, timeout or 5xx while the person is still approving is not
                // their "no": the poll goes on (more slowly) until the code expires or
                // --timeout, so one blip does not end a 15-minute wait.
                if failure.errorClass == .transient {
                    if let notice = outage.failed(failure) { await presenter?.present(notice) }
                    interval = min(interval * 2, 30)
                    continue
                }
                if let notice = outage.answered() { await presenter?.present(notice) }
                // By the OAuth error, never by the code shown: a provider's refinement (Azure
                // AD's AADSTS70016) must not end a sign-in the person has not approved yet.
                switch failure.oauthError ?? failure.code {
                case "authorization_pending": continue
                case "slow_down": interval += 5  // RFC 8628 §3.5: for this and all later polls
                default: throw failure
                }
            }
        }
    }
}
