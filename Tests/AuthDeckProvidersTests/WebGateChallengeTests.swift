import Testing
import AuthDeckHTTP
@testable import AuthDeckProviders

/// A WebGate's `OAM-Auth` challenge read tolerantly and within bounds (issue 41, WebGate):
/// what the seed shows, what RFC 9110 allows around it, and what a hostile gate sends.
@Suite struct WebGateChallengeTests {
    func read(_ value: String) -> Result<WebGateChallenge, WebGateChallenge.Refusal> {
        Result { try WebGateChallenge(value) }.mapError { $0 as! WebGateChallenge.Refusal }
    }

    @Test func theSeedsChallengeAndTheFormsRFC9110Allows() throws {
        let seed = try WebGateChallenge(#"OAM-Auth realm="WebGateHR:2 /webgate/hr", request-ctx="ctx-1""#)
        #expect(seed == WebGateChallenge(realm: "WebGateHR:2 /webgate/hr", context: "ctx-1"))
        for value in [#"oam-auth   REQUEST-CTX=ctx-1 ,, Realm="WebGateHR:2 /webgate/hr" , extra="x""#,
                      "OAM-Auth\trealm=\"WebGateHR:2 /webgate/hr\",request-ctx=\"ctx-1\""] {
            #expect(try WebGateChallenge(value) == seed, "\(value)")
        }
        #expect(try WebGateChallenge(#"OAM-Auth realm="a\"b\\c", request-ctx="x""#).realm == #"a"b\c"#)
        let headers = [HTTPHeader("WWW-Authenticate", #"Bearer realm="x""#), HTTPHeader("www-authenticate", #"OAM-Auth realm="R", request-ctx="C""#)]
        #expect(WebGateChallenge.present(in: headers) && !WebGateChallenge.present(in: [headers[0]]))
        #expect(try WebGateChallenge(headers: headers) == WebGateChallenge(realm: "R", context: "C"))
        #expect(!WebGateChallenge.isOAMAuth("OAM-Authx realm=1") && WebGateChallenge.isOAMAuth(" OAM-AUTH realm=1"))
    }

    /// The emulator's hostile gates, byte for byte, and their relatives: each refused with a
    /// sentence that carries none of the challenge's text.
    @Test func hostileChallengesAreRefusedWithoutTheirText() {
        let cases: [(String, String)] = [
            // A backslash-escaped quote that tries to end the realm and smuggle a request-ctx.
            ("OAM-Auth realm=\"Web\\\"Gate\u{1b}[2J:2 /x\\\", request-ctx=\\\"stolen\", request-ctx=\"ctx\u{1b}]8;;http://evil.example/\u{7}link\\\"q\"",
             "realm carries control characters"),
            (#"OAM-Auth realm="WebGateQ:2 /webgate/q, request-ctx="a"b""#, "text after the quoted realm"),
            (#"OAM-Auth realm="open, request-ctx="x"#, "text after the quoted realm"),
            (#"OAM-Auth realm="never closed"#, "realm has no closing quote"),
            (#"OAM-Auth realm="a", realm="b", request-ctx="c""#, "repeats realm"),
            (#"OAM-Auth realm="a""#, "has no request-ctx"),
            (#"OAM-Auth realm="", request-ctx="c""#, "realm is empty"),
            (#"OAM-Auth realm="a", request-ctx="c", garbage"#, "not a parameter"),
            ("OAM-Auth realm=\"a\u{85}b\", request-ctx=\"c\"", "realm carries control characters"),
            ("OAM-Auth realm=\"R\", request-ctx=\"" + String(repeating: "A", count: 100_000) + "\"", "more than 32768"),
            ("OAM-Auth realm=\"R\", request-ctx=\"" + String(repeating: "A", count: 20_000) + "\"", "request-ctx is 20000 bytes, more than 16384"),
            ("OAM-Auth realm=\"" + String(repeating: "R", count: 2_000) + "\", request-ctx=\"c\"", "realm is 2000 bytes, more than 1024"),
        ]
        for (value, why) in cases {
            switch read(value) {
            case .success(let c): Issue.record("answered \(c.realm.prefix(40)) / \(c.context.prefix(40)) for \(value.prefix(60))")
            case .failure(let refusal):
                #expect(refusal.description.contains(why), "\(refusal) for \(value.prefix(60))")
                #expect(refusal.description.count < 120 && !refusal.description.contains("stolen")
                        && !refusal.description.unicodeScalars.contains { $0.value < 0x20 }, "\(refusal)")
            }
        }
    }
}
