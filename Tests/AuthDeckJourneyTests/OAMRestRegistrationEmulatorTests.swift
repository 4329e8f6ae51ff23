import Testing
import Foundation
import AuthDeckTestSupport

/// The emulator's Mobile and Social client registration at the wire (PROVIDERS.md §5, "Client
/// registration (mobile clients)"), driven with curl so the adapter plays no part: what it asks
/// of a registration and of a registered client's later calls.
@Suite(.serialized) struct OAMRestRegistrationEmulatorTests {
    let idp: EmulatorProcess
    static var profile: [String: Any] { ["oracle:idm:claims:client:sdkversion": "test 1", "oracle:idm:claims:client:ostype": "Linux",
                                         "oracle:idm:claims:client:osversion": "6.1.0", "hardwareIds": [String: String]()] }

    init() throws { idp = try EmulatorProcess() }

    /// POSTs `body` to the service's `operation`; the status and the JSON answer.
    func post(_ service: String, _ operation: String, _ body: [String: Any], handle: (client: String, value: String)? = nil) throws -> (Int, [String: Any]) {
        var args = ["-sS", "-o", "-", "-w", "\n%{http_code}", "-X", "POST", "\(idp.url)/oic_rest/rest/\(service)/\(operation)",
                    "-H", "User-Agent: OIC-test/1", "-H", "X-IDAAS-SERVICEDOMAIN: MobileServiceDomain", "-H", "Content-Type: application/json",
                    "--data-binary", String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)]
        if let handle {
            args += ["-H", "X-Idaas-Rest-Authorization: UIDPASSWORD cred=\"\(Data("\(handle.client):\(handle.value)".utf8).base64EncodedString())\""]
        }
        let text = try EmulatorProcess.curl(args)
        let status = Int(text.split(separator: "\n").last ?? "") ?? 0
        let json = (try? JSONSerialization.jsonObject(with: Data(text.split(separator: "\n").dropLast().joined(separator: "\n").utf8))) as? [String: Any] ?? [:]
        return (status, json)
    }

    func credentials(_ user: String, _ password: String, create: String) -> [String: Any] {
        ["X-Idaas-Rest-Subject-Type": "USERCREDENTIAL", "X-Idaas-Rest-Subject-Username": user, "X-Idaas-Rest-Subject-Password": password,
         "X-Idaas-Rest-New-Token-Type-To-Create": create]
    }

    func register(_ user: String = "taro@contoso.com", _ password: String = "taro-pass-123", profile: [String: Any] = Self.profile) throws -> (Int, [String: Any]) {
        var body = credentials(user, password, create: "CLIENTREGHANDLE")
        body["clientId"] = "WhitePages"
        body["deviceProfile"] = profile
        return try post("mobileoamauthentication", "register", body)
    }

    @Test func aRegistrationNeedsTheDeviceProfileAndGivesAHandleTheMobileServiceRequires() throws {
        var partial = Self.profile
        partial["oracle:idm:claims:client:osversion"] = nil
        let (bad, badBody) = try register(profile: partial)
        #expect(bad == 400 && (badBody["message"] as? String)?.contains("oracle:idm:claims:client:osversion") == true, "\(badBody)")
        #expect(try register("taro@contoso.com", "nope").0 == 401)
        #expect(try post("oamauthentication", "register", credentials("taro@contoso.com", "taro-pass-123", create: "CLIENTREGHANDLE")).0 == 404,
                "only the mobile service registers")

        let (status, answer) = try register()
        #expect(status == 200 && answer["X-Idaas-Rest-Token-Type"] as? String == "CLIENTREGHANDLE", "\(answer)")
        let encoded = try #require(answer["X-Idaas-Rest-Token-Value"] as? String)
        let handle = try #require(encoded.removingPercentEncoding)
        #expect(encoded != handle, "answered URL-encoded")

        let login = credentials("taro@contoso.com", "taro-pass-123", create: "USERTOKEN")
        #expect(try post("mobileoamauthentication", "authenticate", login).0 == 401, "no handle")
        #expect(try post("mobileoamauthentication", "authenticate", login, handle: ("WhitePages", encoded)).0 == 401, "the handle as answered, not decoded")
        #expect(try post("mobileoamauthentication", "authenticate", login, handle: ("Other", handle)).0 == 401, "another application's name")
        #expect(try post("oamauthentication", "authenticate", login).0 == 200, "the non-mobile service needs no handle")
        let (ok, token) = try post("mobileoamauthentication", "authenticate", login, handle: ("WhitePages", handle))
        #expect(ok == 200 && token["X-Idaas-Rest-Token-Type"] as? String == "USERTOKEN", "\(token)")
        // Bound to its user: another user's credentials with taro's handle are refused.
        let jiro = credentials("jiro@contoso.com", "jiro-pass-123", create: "USERTOKEN")
        #expect(try post("mobileoamauthentication", "authenticate", jiro, handle: ("WhitePages", handle)).0 == 401)

        // Revoked by the admin switch: refused; a logout that clears it needs a live one.
        #expect(try idp.admin("oam/rest/registrations", #"{"action":"revoke"}"#).contains("\"changed\":1"))
        #expect(try post("mobileoamauthentication", "authenticate", login, handle: ("WhitePages", handle)).0 == 401)
        #expect(try post("mobileoamauthentication", "logout", ["clearRegistrationHandles": "true"], handle: ("WhitePages", handle)).0 == 401)
        // A live one is deleted by logout with clearRegistrationHandles, and refused afterwards.
        let fresh = try #require((try register().1["X-Idaas-Rest-Token-Value"] as? String)?.removingPercentEncoding)
        #expect(try post("mobileoamauthentication", "logout", ["clearRegistrationHandles": "true"], handle: ("WhitePages", fresh)).0 == 200)
        #expect(try post("mobileoamauthentication", "authenticate", login, handle: ("WhitePages", fresh)).0 == 401)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(idp.admin("oam/rest/registrations").utf8)) as? [String: Any])
        let rows = report["registrations"] as? [[String: Any]] ?? []
        #expect(rows.count == 2 && rows.contains { $0["revoked"] as? Bool == true } && rows.contains { $0["deleted"] as? Bool == true }, "\(rows)")
        #expect(!(try idp.admin("oam/rest/registrations")).contains(handle), "the report never shows a handle")
    }
}
