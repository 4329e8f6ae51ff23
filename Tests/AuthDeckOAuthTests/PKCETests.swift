import Testing
import AuthDeckOAuth

/// PKCE against RFC 7636's appendix B vector, and base64url both ways.
@Suite struct PKCETests {
    @Test func rfc7636Vector() {
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
    }

    @Test func freshVerifiersAreLongAndDistinct() {
        let a = PKCE(), b = PKCE()
        #expect(a.verifier.count == 43 && a.verifier != b.verifier)
    }

    @Test func base64URLRoundTrips() {
        for n in 0..<40 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.encode(Array("{\"uid\":\"a\"}".utf8)) == "eyJ1aWQiOiJhIn0")
        #expect(Base64URL.decode("eyJ1aWQiOiJhIn0=") == Array("{\"uid\":\"a\"}".utf8))
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab*c") == nil)
    }
}
