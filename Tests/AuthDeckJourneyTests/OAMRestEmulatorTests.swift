import Testing
import Foundation
import AuthDeckTestSupport

/// The emulator's OAM Mobile and Social REST service and its WebGates, at the wire
/// (PROVIDERS.md §5, "Mobile and Social REST authentication … and WebGate-protected REST"):
/// what an SDK client sees, driven with curl so the adapters play no part.
@Suite(.serialized) struct OAMRestEmulatorTests {
    let idp: EmulatorProcess
    static let domain = "MobileServiceDomain", agent = "OIC-authdeck-test/1"

    init() throws { idp = try EmulatorProcess() }

    /// One HTTP exchange: status, headers (names lowercased) and body.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
    }

    func call(_ method: String, _ path: String, headers: [String: String] = [:], json: [String: String]? = nil) throws -> Answer {
        var args = ["-sS", "-i", "-X", method, idp.url + path]
        for (k, v) in headers { args += ["-H", "\(k): \(v)"] }
        if let json {
            let data = try JSONSerialization.data(withJSONObject: json)
            args += ["-H", "Content-Type: application/json", "--data-binary", String(decoding: data, as: UTF8.self)]
        }
        let text = try EmulatorProcess.curl(args)
        let split = try #require(text.range(of: "\r\n\r\n"))
        let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
        var h: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            h[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        return Answer(status: status, headers: h, body: String(text[split.upperBound...]))
    }

    func rest(_ operation: String, _ body: [String: String], domain: String? = Self.domain) throws -> Answer {
        var headers = ["User-Agent": Self.agent]
        if let domain { headers["X-IDAAS-SERVICEDOMAIN"] = domain }
        return try call("POST", "/oic_rest/rest/oamauthentication/\(operation)", headers: headers, json: body)
    }

    func userToken(_ user: String = "taro@contoso.com", _ password: String = "taro-pass-123") throws -> Answer {
        try rest("authenticate", ["X-Idaas-Rest-Subject-Type": "USERCREDENTIAL", "X-Idaas-Rest-Subject-Username": user,
                                  "X-Idaas-Rest-Subject-Password": password, "X-Idaas-Rest-New-Token-Type-To-Create": "USERTOKEN"])
    }

    /// The realm and request context of an `OAM-Auth` challenge (the emulator's own, well-formed).
    func challenge(_ a: Answer) throws -> (realm: String, ctx: String) {
        let value = try #require(a.headers["www-authenticate"])
        #expect(value.hasPrefix("OAM-Auth "), "\(value)")
        func param(_ name: String) throws -> String {
            let r = try #require(value.range(of: "\(name)=\""))
            return String(value[r.upperBound...].prefix { $0 != "\"" })
        }
        return (try param("realm"), try param("request-ctx"))
    }

    func accessToken(userToken: String, ctx: String, resource: String) throws -> Answer {
        try rest("access", ["X-Idaas-Rest-Subject-Type": "TOKEN", "X-Idaas-Rest-Subject-Value": userToken,
                            "X-Idaas-Rest-New-Token-Type-To-Create": "ACCESSTOKEN", "X-Idaas-Rest-Application-Context": ctx,
                            "X-Idaas-Rest-Application-Resource": idp.url + resource])
    }

    func get(_ path: String, token: String? = nil, agent: String = Self.agent) throws -> Answer {
        var headers = ["User-Agent": agent]
        if let token { headers["Authorization"] = "OAM-Auth \(token)" }
        return try call("GET", path, headers: headers)
    }

    /// The WebGate's challenge answered: a fresh access token for the resource.
    func tokenFor(_ path: String, userToken: String) throws -> String {
        let (_, ctx) = try challenge(try get(path))
        let a = try accessToken(userToken: userToken, ctx: ctx, resource: path)
        try #require(a.status == 200, "\(a.body)")
        #expect(a.json["X-Idaas-Rest-Token-Type"] as? String == "ACCESSTOKEN")
        return try #require(a.json["X-Idaas-Rest-Token-Value"] as? String)
    }

    @Test func aUserTokenAnswersTheChallengeOfEachWebGateWithItsOwnAccessToken() throws {
        let signed = try userToken()
        #expect(signed.status == 200, "\(signed.body)")
        #expect(signed.json["X-Idaas-Rest-Token-Type"] as? String == "USERTOKEN" && signed.json["X-Idaas-Rest-User-Principal"] as? String == "taro@contoso.com")
        let encoded = try #require(signed.json["X-Idaas-Rest-Token-Value"] as? String)
        #expect(encoded.contains("%"), "the user token arrives URL-encoded, as PROVIDERS.md warns: \(encoded)")
        let user = try #require(encoded.removingPercentEncoding)

        // An SDK client is challenged; the realm names the WebGate, its level and its REST URL.
        let first = try get("/webgate/hr/api/me")
        #expect(first.status == 401)
        let (realm, _) = try challenge(first)
        #expect(realm == "WebGateHR:2 /webgate/hr")
        let hr = try tokenFor("/webgate/hr/api/me", userToken: user)
        let ok = try get("/webgate/hr/api/me", token: hr)
        #expect(ok.status == 200 && ok.json["user"] as? String == "taro@contoso.com" && ok.json["webgate"] as? String == "WebGateHR", "\(ok.body)")
        #expect(try get("/webgate/hr/other", token: hr).status == 200, "the token is for the WebGate, not one resource")

        // The second WebGate: another realm; the first one's token is refused there.
        let payroll = try get("/webgate/payroll/api/me", token: hr)
        #expect(payroll.status == 401)
        #expect(try challenge(payroll).realm == "WebGatePayroll:2 /webgate/payroll")
        let own = try tokenFor("/webgate/payroll/api/me", userToken: user)
        #expect(own != hr)
        #expect(try get("/webgate/payroll/api/me", token: own).json["webgate"] as? String == "WebGatePayroll")
        #expect(try get("/webgate/hr/api/me", token: own).status == 401)

        // A browser (no SDK User-Agent prefix) is sent to a login page instead.
        let browser = try get("/webgate/hr/api/me", agent: "Mozilla/5.0")
        #expect(browser.status == 302 && browser.headers["location"]?.contains("obrareq") == true)
    }

    @Test func theServiceRefusesWrongCredentialsAndAsksForItsServiceDomain() throws {
        #expect(try userToken("taro@contoso.com", "wrong").status == 401)
        let noDomain = try rest("authenticate", ["X-Idaas-Rest-Subject-Type": "USERCREDENTIAL", "X-Idaas-Rest-Subject-Username": "taro@contoso.com",
                                                 "X-Idaas-Rest-Subject-Password": "taro-pass-123", "X-Idaas-Rest-New-Token-Type-To-Create": "USERTOKEN"],
                                domain: nil)
        #expect(noDomain.status == 400 && noDomain.body.contains("X-IDAAS-SERVICEDOMAIN"))
        // A request context no WebGate issued, or a resource behind another WebGate, gets nothing.
        let user = try #require((try userToken().json["X-Idaas-Rest-Token-Value"] as? String)?.removingPercentEncoding)
        #expect(try accessToken(userToken: user, ctx: "made-up", resource: "/webgate/hr/api/me").status == 400)
        let (_, ctx) = try challenge(try get("/webgate/hr/api/me"))
        #expect(try accessToken(userToken: user, ctx: ctx, resource: "/webgate/payroll/api/me").status == 400)
        #expect(try accessToken(userToken: "not-a-token", ctx: ctx, resource: "/webgate/hr/api/me").status == 401)

        // What the service received: the domain and User-Agent, never a password or token.
        let report = try #require(try JSONSerialization.jsonObject(with: Data(idp.admin("oam/rest").utf8)) as? [String: Any])
        let calls = try #require(report["calls"] as? [[String: String]])
        #expect(calls.first?["service_domain"] == Self.domain && calls.first?["user_agent"] == Self.agent, "\(calls)")
        #expect(calls.first?["x-idaas-rest-subject-password"] == "present")
        #expect(!String(describing: calls).contains("taro-pass-123"))
    }

    @Test func aWebGateThatForgetsAndAServerThatRevokesRefuseTheTokens() throws {
        let user = try #require((try userToken().json["X-Idaas-Rest-Token-Value"] as? String)?.removingPercentEncoding)
        let hr = try tokenFor("/webgate/hr/api/me", userToken: user)
        let payroll = try tokenFor("/webgate/payroll/api/me", userToken: user)
        #expect(try idp.admin("oam/rest", #"{"action":"forget-webgate","webgate":"WebGateHR"}"#).contains("\"changed\":1"))
        #expect(try get("/webgate/hr/api/me", token: hr).status == 401, "the WebGate no longer accepts its cached token")
        #expect(try get("/webgate/payroll/api/me", token: payroll).status == 200, "the other WebGate is untouched")
        // The user token still works: a new access token is issued.
        let again = try tokenFor("/webgate/hr/api/me", userToken: user)
        #expect(try get("/webgate/hr/api/me", token: again).status == 200)

        // The server ends the session: the user token and the access tokens minted from it go.
        #expect(try idp.admin("oam/rest", #"{"action":"revoke-user-tokens","username":"taro@contoso.com"}"#).contains("\"changed\":1"))
        #expect(try get("/webgate/payroll/api/me", token: payroll).status == 401)
        let (_, ctx) = try challenge(try get("/webgate/hr/api/me"))
        #expect(try accessToken(userToken: user, ctx: ctx, resource: "/webgate/hr/api/me").status == 401)
        // Logout ends a session too.
        let second = try #require((try userToken().json["X-Idaas-Rest-Token-Value"] as? String)?.removingPercentEncoding)
        let bye = try rest("logout", ["X-Idaas-Rest-Subject-Type": "TOKEN", "X-Idaas-Rest-Subject-Value": second])
        #expect(bye.status == 200, "\(bye.body)")
        #expect(try rest("logout", ["X-Idaas-Rest-Subject-Type": "TOKEN", "X-Idaas-Rest-Subject-Value": second]).status == 401)
    }

    @Test func theHostileWebGateChallengesWithEscapesQuotesAndAHugeContext() throws {
        let escapes = try get("/webgate/hostile/escapes")
        #expect(escapes.status == 401 && escapes.headers["www-authenticate"]?.contains("\u{1b}") == true)
        #expect(try get("/webgate/hostile/quotes").headers["www-authenticate"]?.hasPrefix("OAM-Auth realm=") == true)
        let huge = try get("/webgate/hostile/huge")
        #expect((huge.headers["www-authenticate"]?.utf8.count ?? 0) > 100_000)
    }
}
