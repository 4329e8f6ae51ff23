import Testing
import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// Issue 38: every sender of a secret goes through the one decision (`SecretDestination`,
/// asked by `HTTPClient.send`). The enumeration fails when a new file starts building requests
/// without being listed here with how its secrets are held, or when anything calls `transmit`
/// (the ungated send) outside the HTTP module; each sender is then driven at a plain-http and
/// a foreign destination with a client that records what it was asked to transmit.
@Suite struct SecretSendersTests {
    let now = Instant(secondsSinceEpoch: 1_800_000_000)
    static let answer = #"{"access_token":"at","token_type":"Bearer","expires_in":60,"refresh_token":"rt2"}"#

    /// Every file that builds an `HTTPRequest` or puts an `Authorization` header on one, and how
    /// the secrets it may carry are held.
    static let senders: [String: String] = [
        "AuthDeckHTTP/HTTPRequest.swift": "the type itself; `effectivePassage` infers a passage for undeclared credentials",
        "AuthDeckOAuth/TokenEndpoint.swift": "declares every grant's secrets, with the refresh token's home",
        "AuthDeckOAuth/Revocation.swift": "declares the token and the client's secret, with the refresh token's home",
        "AuthDeckOAuth/ClientRegistration.swift": "declares the registration access token, homed at the issuer",
        "AuthDeckOAuth/ClientRegistration+Update.swift": "declares the registration access token, homed at the issuer (RFC 7592 PUT)",
        "AuthDeckOAuth/DeviceFlow.swift": "client authentication only: inferred (Authorization, client_secret, client_assertion)",
        "AuthDeckOAuth/UserInfo.swift": "an access token in Authorization: inferred",
        "AuthDeckOAuth/ProviderMetadata.swift": "discovery: no secret",
        "AuthDeckProviders/MetadataResolver.swift": "signing keys: no secret",
        "AuthDeckProviders/Facebook/FacebookAdapter.swift": "access_token, client_secret, input_token, fb_exchange_token fields: inferred",
        "AuthDeckProviders/SharePoint/SharePointAdapter.swift": "Authorization and the cookie jar: inferred",
        "AuthDeckProviders/SharePoint/SharePointSAML.swift": "declares the password and the SAML token (SOAP and raw bodies)",
        "AuthDeckProviders/OAM/OAMRestService.swift": "declares the password or user token in its JSON body and the registration handle in X-Idaas-Rest-Authorization, homed at the Mobile and Social server's origin",
        "AuthDeckApp/AuthorizedRequest.swift": "hands the request to ResourceRequester, which declares the credential homed at the URL's origin",
        "AuthDeckProviders/ResourceRequester.swift": "declares the bearer token and cookie jar it adds, homed at the origin of the URL the person named",
        "AuthDeckProviders/OAM/WebGateRequester.swift": "hands its OAM-Auth token to ResourceRequester.attempt, which declares it homed at the challenging origin (the one the person named)",
        "AuthDeckOAuth/OAuthClient.swift": "client authentication (Basic) for the senders above, which declare or infer it",
        "AuthDeckApp/RegistryExchange.swift": "declares the Entra token, homed at the registry",
        "AuthDeckApp/EmulatorAdmin.swift": "the local emulator's admin API: no secret",
    ]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    /// The Swift files under Sources (the emulator and test support aside: they are the far side).
    static func files() throws -> [(String, String)] {
        let root = sources.path
        let names = try #require(FileManager.default.subpathsOfDirectory(atPath: root) as [String]?)
        return try names.filter { $0.hasSuffix(".swift") && !$0.hasPrefix("AuthDeckEmulator/") && !$0.hasPrefix("AuthDeckTestSupport/") }
            .map { ($0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8)) }
    }

    @Test func everyFileThatBuildsARequestIsAKnownSender() throws {
        let files = try Self.files()
        #expect(files.count > 100, "read the sources at \(Self.sources.path)")
        let building = Set(files.filter { _, text in
            text.contains("HTTPRequest(") || text.contains("HTTPRequest.form(") || text.contains("HTTPRequest.json(")
                || text.contains(#"HTTPHeader("Authorization""#) || text.contains(#"HTTPHeader("authorization""#)
        }.map(\.0))
        #expect(building == Set(Self.senders.keys), "new: \(building.subtracting(Self.senders.keys).sorted()); gone: \(Set(Self.senders.keys).subtracting(building).sorted())")
        for (file, how) in Self.senders where how.hasPrefix("declares") {
            #expect(files.first { $0.0 == file }?.1.contains("passage") == true, "\(file) declares its passage")
        }
        let ungated = files.filter { file, text in !file.hasPrefix("AuthDeckHTTP/") && text.contains(".transmit(") }.map(\.0)
        #expect(ungated.isEmpty, "sends past the gate: \(ungated)")
    }

    /// A fake network: records what reached the transport.
    func network(_ answers: Int = 4) -> FakeHTTPClient {
        FakeHTTPClient((0..<answers).map { _ in { _ in FakeHTTPClient.response(200, Self.answer) } })
    }

    @Test func theTokenEndpointSendsNoGrantOverPlainHttpNorARefreshTokenAwayFromHome() async throws {
        let home = GrantHome.issued(by: "https://a.example", at: "https://a.example/token")
        let clients = [OAuthClient(id: "c", authentication: .none), OAuthClient(id: "c", authentication: .secretPost(Secret("CS-1"))),
                       OAuthClient(id: "c", authentication: .secretBasic(Secret("CS-1")))]
        let grants: [(TokenEndpoint.Grant, [(String, String)])] = [
            (.refresh, [("grant_type", "refresh_token"), ("refresh_token", "RT-1")]),
            (.password, [("grant_type", "password"), ("username", "u"), ("password", "PW-1")]),
            (.deviceCode, [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", "DC-1")]),
            (.authorizationCode, [("grant_type", "authorization_code"), ("code", "CODE-1"), ("code_verifier", "V-1")]),
            (.clientCredentials, [("grant_type", "client_credentials")]),
        ]
        for client in clients {
            for (grant, fields) in grants {
                let http = network()
                let plain = TokenEndpoint(url: "http://tok.evil.example/token", client: client, http: http, issuer: "https://a.example")
                await #expect(throws: AuthFailure.self, "\(grant) over http") {
                    _ = try await plain.request(fields, grant: grant, secrets: [], home: grant == .refresh ? home : nil, now: now)
                }
                #expect(http.requests.isEmpty, "\(grant) reached http://tok.evil.example")
            }
            // A refresh token (and the client's secret with it) away from its home.
            for (url, issuer) in [("https://b.example/token", "https://b.example"), ("https://a.example/token", "https://b.example")] {
                let http = network()
                let moved = TokenEndpoint(url: url, client: client, http: http, issuer: issuer)
                do {
                    _ = try await moved.request(grants[0].1, grant: .refresh, secrets: ["RT-1"], home: home, now: now)
                    Issue.record("a refresh token went to \(url) for \(issuer)")
                } catch let f as AuthFailure {
                    #expect(f.code == "grant_moved" && f.errorClass == .needsInteraction, "\(f)")
                    #expect(!f.remedy.contains("RT-1") && !f.remedy.contains("CS-1"))
                }
                #expect(http.requests.isEmpty)
            }
            // At home it goes, and the new grant records where it was made.
            let http = network()
            let set = try await TokenEndpoint(url: "https://a.example/token", client: client, http: http, issuer: "https://a.example")
                .request(grants[0].1, grant: .refresh, secrets: ["RT-1"], home: home, now: now)
            #expect(http.requests.count == 1 && set.home == home)
            #expect(set.credentials(now: now, requestedScopes: [], idTokenClaims: [:]).refreshToken?.home == home)
        }
    }

    @Test func revocationSendsARefreshTokenOnlyHome() async throws {
        let home = GrantHome.issued(by: "https://a.example", at: "https://a.example/token")
        for url in ["http://tok.evil.example/revoke", "https://b.example/revoke"] {
            let http = network()
            let revocation = Revocation(endpoint: url, client: OAuthClient(id: "c", authentication: .secretBasic(Secret("CS-1"))), http: http,
                                        issuer: "https://a.example")
            await #expect(throws: RevocationUnavailable.self, "\(url)") {
                try await revocation.revoke(Secret("RT-1"), hint: "refresh_token", home: home, now: now)
            }
            #expect(http.requests.isEmpty, "reached \(url)")
        }
        let http = network()
        try await Revocation(endpoint: "https://a.example/revoke", client: OAuthClient(id: "c", authentication: .none), http: http,
                             issuer: "https://a.example").revoke(Secret("RT-1"), hint: "refresh_token", home: home, now: now)
        #expect(http.requests.count == 1)
    }

    /// The attack: `logout --clear-registration` sent `DELETE /steal/reg` with the registration
    /// access token to a `registration_client_uri` on another host. It goes only to the
    /// issuer's origin, unless config names the other host (the home then holds it).
    @Test func aRegistrationAccessTokenGoesOnlyToTheIssuersOriginOrAHostConfigNames() async throws {
        let registered = ClientRegistration.Registered(clientId: "c", clientSecret: Secret("CS-1"), accessToken: Secret("RAT-1"),
                                                       clientURI: "https://steal.example/steal/reg", authMethod: "client_secret_basic",
                                                       grantTypes: [], redirectURI: nil)
        let issuerHome = GrantHome(issuer: "https://a.example", origins: ["https://a.example"])
        for uri in ["https://steal.example/steal/reg", "http://a.example/reg", "https://a.example:444/reg"] {
            var r = registered
            r.clientURI = uri
            let http = network()
            do {
                try await ClientRegistration(endpoint: "https://a.example/register", http: http).delete(r, home: issuerHome)
                Issue.record("the registration access token went to \(uri)")
            } catch let f as AuthFailure {
                #expect(f.remedy.contains("registration was kept") && !f.remedy.contains("RAT-1"), "\(f)")
            }
            #expect(http.requests.isEmpty, "reached \(uri)")
            // The same for an update of the registration's grants (RFC 7592 PUT).
            let put = network()
            do {
                _ = try await ClientRegistration(endpoint: "https://a.example/register", http: put)
                    .update(r, grantTypes: ["authorization_code", "password"], scope: nil, home: issuerHome)
                Issue.record("the registration access token went to \(uri) in an update")
            } catch let f as AuthFailure {
                #expect(f.remedy.contains("not updated") && !f.remedy.contains("RAT-1"), "\(f)")
            }
            #expect(put.requests.isEmpty, "an update reached \(uri)")
        }
        let named = GrantHome(issuer: "https://a.example", origins: ["https://a.example", "https://steal.example"])
        let http = FakeHTTPClient([{ _ in FakeHTTPClient.response(204, "") }])
        try await ClientRegistration(endpoint: "https://a.example/register", http: http).delete(registered, home: named)
        #expect(http.requests.count == 1 && http.requests[0].url == "https://steal.example/steal/reg")
    }

    /// Senders that declare nothing are held to the transport rule by what they carry.
    @Test func anUndeclaredCredentialIsHeldToTheTransportRule() async throws {
        let http = network()
        #expect(await UserInfo.fetch("http://userinfo.evil.example/me", accessToken: Secret("AT-1"), http: http) == nil)
        for request in [HTTPRequest(url: "http://api.evil.example/x", headers: [HTTPHeader("authorization", "Bearer AT-1")]),
                        HTTPRequest(url: "http://api.evil.example/x", headers: [HTTPHeader("Cookie", "FedAuth=1")]),
                        HTTPRequest(url: "http://graph.evil.example/me?fields=id&access_token=AT-1"),
                        HTTPRequest.form("http://api.evil.example/x", [("client_secret", "CS-1")]),
                        { var r = HTTPRequest(url: "http://api.evil.example/x"); r.cookieJar = ["x\tFALSE\t/\tFALSE\t0\tn\tv"]; return r }()] {
            await #expect(throws: HTTPError.self) { _ = try await http.send(request) }
        }
        #expect(http.requests.isEmpty)
        // Nothing secret: it goes (a discovery document over http is the config's business).
        _ = try await http.send(HTTPRequest(url: "http://docs.example/.well-known/openid-configuration"))
        #expect(http.requests.count == 1)
    }
}
