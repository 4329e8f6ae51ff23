import Testing
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckTestSupport
@testable import AuthDeckProviders

/// The Mobile and Social REST service's answers read through `JSONObject` over a scripted
/// network: tolerantly where PROVIDERS.md §5 leaves the shape open (field names in any case, a
/// URL-encoded token), and a token that is not a string, or a body that is not JSON, named as
/// the missing field it amounts to.
@Suite struct OAMRestServiceTests {
    static let url = "https://oam.example/oic_rest/rest/oamauthentication/authenticate"

    func service(_ http: ScriptedHTTPClient) throws -> OAMRestService {
        let profile = ProviderProfile(id: "ms", kind: .oam, endpoints: ["base": "https://oam.example"],
                                      options: ["server_type": "mobile-social", "service_domain": "MobileServiceDomain"])
        return OAMRestService(settings: try #require(try OAMRestSettings(profile)), http: http, profileId: "ms")
    }

    func authenticate(answering body: String) async throws -> OAMRestService.Issued {
        let http = ScriptedHTTPClient()
        http.on("POST", Self.url) { _ in ScriptedHTTPClient.json(200, body) }
        return try await service(http).authenticate(username: "taro", password: Secret("pw"))
    }

    @Test func fieldNamesInAnyCaseAndAnEncodedTokenAreRead() async throws {
        let issued = try await authenticate(answering: #"{"x-idaas-rest-token-value":"a%2Bb%3D","X-IDAAS-REST-USER-PRINCIPAL":"taro","n":1}"#)
        #expect(issued.token.exposedValue == "a+b=" && issued.principal == "taro")
    }

    @Test(arguments: [#"{"X-Idaas-Rest-Token-Value":123}"#, #"{"X-Idaas-Rest-Token-Value":"t",}"#, "<html>ok</html>", "[]", ""])
    func anAnswerWithoutATokenStringIsNamed(body: String) async throws {
        let failure = await #expect(throws: AuthFailure.self) { _ = try await authenticate(answering: body) }
        #expect(failure?.code == "no_token" && failure?.errorClass == .misconfigured, "\(body)")
        #expect(failure?.remedy.contains("answered authenticate without X-Idaas-Rest-Token-Value") == true)
    }
}
