import Testing
import AuthDeckCore

/// The key a WebGate access token is kept under (issue 41, WebGate): realm and origin in one
/// requested scope that the store seals with the token and keeps space-separated.
@Suite struct WebGateRealmTests {
    let now = Instant(secondsSinceEpoch: 1_800_000_000)

    @Test(arguments: ["WebGateHR:2 /webgate/hr", "a b%c@d\"e\\f", "ゲート:1 /ラ", "%41", "x@https://evil.example"])
    func aRealmSurvivesItsScopeWithoutSpacesAndKeepsItsOrigin(realm: String) throws {
        let gate = WebGateRealm(realm: realm, origin: "https://api.example:8443")
        #expect(!gate.scope.contains(" ") && gate.scope.hasPrefix("oam-webgate:"), "\(gate.scope)")
        #expect(gate.scope.hasSuffix("@https://api.example:8443"), "an @ in the realm cannot move the origin: \(gate.scope)")
        #expect(WebGateRealm(scope: gate.scope) == gate)
    }

    @Test func onlyAnOAMAuthTokenWithOneWebGateScopeIsAWebGatesToken() {
        let gate = WebGateRealm(realm: "WebGateHR:2 /webgate/hr", origin: "https://api.example")
        let other = WebGateRealm(realm: "WebGatePayroll:2 /webgate/payroll", origin: "https://api.example")
        let elsewhere = WebGateRealm(realm: "WebGateHR:2 /webgate/hr", origin: "https://other.example")
        func token(_ scopes: [String], type: String = "OAM-Auth") -> AccessToken {
            AccessToken(id: "\(scopes)\(type)", value: Secret("v"), scopes: [], requestedScopes: scopes, tokenType: type, obtainedAt: now, expiresAt: nil)
        }
        let user = token([], type: "USERTOKEN")
        let mine = token([gate.scope])
        let credentials = Credentials(accessTokens: [user, token([other.scope]), mine, token([gate.scope], type: "Bearer")])
        #expect(gate.token(in: credentials) == mine)
        #expect(elsewhere.token(in: credentials) == nil, "the same realm at another origin is another WebGate")
        #expect(WebGateRealm.held(in: credentials).map(\.gate) == [other, gate])
        #expect(WebGateRealm(token: user) == nil && WebGateRealm(scope: "openid") == nil)
        // `authdeck token` with no scope still answers the user token.
        #expect(credentials.usableAccessToken(for: [], at: now, skew: .seconds(0)) == user)
    }
}
