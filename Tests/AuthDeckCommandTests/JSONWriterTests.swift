import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckTestSupport
@testable import AuthDeckCLI

/// The hand-built JSON of `accounts --json`, written straight from the deck's entries, is byte
/// for byte what JSONEncoder writes for the same `AccountJSON`s: every field, every state of
/// the fixture deck, hostile strings, whole or in pieces.
@Suite struct JSONWriterTests {
    func encoderText<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }

    /// The whole document `AccountJSON.stream` writes, as text.
    func streamed(_ entries: [DeckAssessment.Entry], now: Instant, skew: TimeSpan) -> String {
        var out: [UInt8] = []
        AccountJSON.stream(entries, now: now, skew: skew, chunk: .max) { out += $0 }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func theFixtureDeckWritesAsJSONEncoderWouldWriteIt() throws {
        let now = Instant(secondsSinceEpoch: 1_800_000_000)
        let config = try ConfigLoader.parse(DeckFixture.configTOML, path: "c")
        let hostile = StoredAccount(
            account: Account(id: "gl/evil0001", providerId: "gl", subject: "e\"v\\il", username: "\u{1b}[2J\u{0}\t\n\r\u{8}\u{c}/x",
                             displayName: "本番 ✓ \u{7f}\u{2028}", realm: nil, createdAt: now, lastSignInAt: now,
                             lastError: AccountError(errorClass: .needsInteraction, code: "invalid_grant", remedy: "sign \"in\"", at: now)),
            credentials: Credentials(accessTokens: [AccessToken(id: "t", value: Secret("x"), scopes: [], obtainedAt: now, expiresAt: nil)],
                                     idTokenClaims: ["b": "2", "a": "1"],
                                     cookies: [Cookie(id: "c", name: "FedAuth", value: Secret("v"), domain: ".x", expiresAt: now)]))
        let assessment = DeckAssessment(accounts: DeckFixture(now: now).accounts + [hostile], providers: config.knownProviders,
                                        statePolicy: config.statePolicy, pruneSettings: config.pruneSettings, now: now)
        let skew = config.statePolicy.clockSkew
        let accounts = assessment.entries.map { AccountJSON($0, now: now, skew: skew) }
        #expect(accounts.count > 10)
        let written = streamed(assessment.entries, now: now, skew: skew)
        #expect(written == (try encoderText(accounts)))
        #expect(streamed([], now: now, skew: skew) == (try encoderText([AccountJSON]())))
        // Written in pieces (as `accounts --json` does), the document is the same bytes.
        var pieces: [UInt8] = []
        var count = 0
        AccountJSON.stream(assessment.entries, now: now, skew: skew, chunk: 100) { pieces += $0; count += 1 }
        #expect(String(decoding: pieces, as: UTF8.self) == written)
        #expect(count > 10)
    }
}
