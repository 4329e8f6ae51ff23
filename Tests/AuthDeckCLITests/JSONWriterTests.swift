import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckTestSupport
@testable import AuthDeckCLI

/// The hand-built JSON of `accounts --json`, written straight from the deck's entries, is byte
/// for byte what JSONEncoder writes for the same `AccountShape`s: every field, every state of
/// the fixture deck, hostile strings, whole or in pieces.
@Suite struct JSONWriterTests {
    func encoderText<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // JSONEncoder writes an empty container over three lines; authdeck writes `[]` / `{}`.
        let text = String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
        return text.replacing(/\[\n *\n *\]/, with: "[]").replacing(/\{\n *\n *\}/, with: "{}")
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
                                     idTokenClaims: ["b": "2", "a": "1", "exp": "1800003600", "iat": "not a number", "auth_time": "-5"],
                                     cookies: [Cookie(id: "c", name: "FedAuth", value: Secret("v"), domain: ".x", expiresAt: now)]))
        let assessment = DeckAssessment(accounts: DeckFixture(now: now).accounts + [hostile], providers: config.knownProviders,
                                        statePolicy: config.statePolicy, pruneSettings: config.pruneSettings, now: now)
        let skew = config.statePolicy.clockSkew
        let accounts = assessment.entries.map { AccountShape($0, now: now, skew: skew) }
        #expect(accounts.count > 10)
        let written = streamed(assessment.entries, now: now, skew: skew)
        #expect(written == (try encoderText(accounts)))
        #expect(streamed([], now: now, skew: skew) == "[]\n")
        // Written in pieces (as `accounts --json` does), the document is the same bytes.
        var pieces: [UInt8] = []
        var count = 0
        AccountJSON.stream(assessment.entries, now: now, skew: skew, chunk: 100) { pieces += $0; count += 1 }
        #expect(String(decoding: pieces, as: UTF8.self) == written)
        #expect(count > 10)
    }

    /// The dates written straight into the buffer are `Instant.iso8601`'s at random seconds
    /// from 1601 to 9999; a year outside 0–9999 is not written there (the caller quotes it).
    @Test func datesWrittenInPlaceAreTheInstantsOwnText() {
        var generator = SystemRandomNumberGenerator()
        var out = [UInt8](repeating: 0, count: 20)
        for _ in 0..<3000 {
            let instant = Instant(secondsSinceEpoch: Int64.random(in: -11_644_473_600...253_402_300_799, using: &generator))
            #expect(JSONWriter.writeISO8601(instant, to: &out))
            #expect(String(decoding: out, as: UTF8.self) == instant.iso8601)
        }
        #expect(!JSONWriter.writeISO8601(Instant(secondsSinceEpoch: 253_402_300_800), to: &out))
        #expect(!JSONWriter.writeISO8601(Instant(secondsSinceEpoch: -62_167_219_201), to: &out))
    }

    /// The eight-bytes-at-a-time scan for bytes to escape agrees with the byte test for every
    /// byte value at every offset of strings long enough to take both the word loop and the
    /// tail, and for random strings of bytes near the edges (0x1F/0x20, `"`, `\`, 0x7F/0x80).
    @Test func theWordScanFindsEveryByteToEscape() {
        for length in [1, 7, 8, 9, 16, 23, 24] {
            for offset in 0..<length {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    bytes[offset] = UInt8(value)
                    let expected = JSONWriter.mustEscape(UInt8(value))
                    let got = bytes.withUnsafeBytes { JSONWriter.anyEscaped($0.baseAddress!, length) }
                    #expect(got == expected, "byte \(value) at \(offset) of \(length)")
                }
            }
        }
        let edges: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF, 0x61]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                Bool.random(using: &generator) ? 0x61 : edges.randomElement(using: &generator)!
            }
            let got = bytes.withUnsafeBytes { $0.baseAddress.map { JSONWriter.anyEscaped($0, bytes.count) } ?? false }
            #expect(got == bytes.contains(where: JSONWriter.mustEscape), "\(bytes)")
        }
    }
}

/// The account shape as authdeck(1) documents it, described independently of the writer: the
/// oracle JSONEncoder turns into the bytes `AccountJSON` must write.
struct AccountShape: Encodable {
    struct ErrorJSON: Encodable {
        var `class`: String
        var code: String
        var remedy: String
        var at: String
    }
    struct AccessTokenJSON: Encodable {
        var scopes: [String]
        var token_type: String
        var obtained_at: String
        var expires_at: String?
        var valid: Bool
    }
    struct RefreshTokenJSON: Encodable {
        var generation: Int
        var obtained_at: String
        var expires_at: String?
    }
    struct CookieJSON: Encodable {
        var name: String
        var domain: String
        var path: String
        var expires_at: String?
        var secure: Bool
        var http_only: Bool
    }

    var id: String
    var provider: String
    var subject: String
    var username: String
    var display_name: String
    var realm: String?
    var state: String
    var state_reason: String?
    var renewable: Bool?
    var expires_at: String?
    var expires_in_seconds: Int64?
    var created_at: String
    /// The account a bare provider id stands for (`authdeck use`).
    var `default`: Bool
    var last_sign_in_at: String?
    var last_used_at: String?
    var last_error: ErrorJSON?
    var failed_attempts: Int
    var access_tokens: [AccessTokenJSON]
    var refresh_token: RefreshTokenJSON?
    var cookies: [CookieJSON]
    var id_token_claims: [String: Claim]

    /// The error classes by the names authdeck(1) documents.
    static let documentedClass: [ErrorClass: String] = [
        .transient: "transient", .needsInteraction: "needs_interaction", .misconfigured: "misconfigured", .declined: "declined",
    ]

    /// A claim as authdeck(1) says it is printed: text, but the NumericDate claims as numbers.
    enum Claim: Encodable {
        case text(String), number(Int64)
        init(name: String, value: String) {
            let dates: Set<String> = ["exp", "iat", "nbf", "auth_time", "updated_at"]
            if dates.contains(name), let n = Int64(value) { self = .number(n) } else { self = .text(value) }
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .text(let s): try c.encode(s)
            case .number(let n): try c.encode(n)
            }
        }
    }
    var quarantined_at: String?

    init(_ entry: DeckAssessment.Entry, now: Instant, skew: TimeSpan, isDefault: Bool = false) {
        let a = entry.stored.account
        let c = entry.stored.credentials
        id = a.id
        provider = a.providerId
        subject = a.subject
        username = a.username
        display_name = a.displayName
        realm = a.realm
        state = entry.state.key
        state_reason = entry.state.reason
        renewable = entry.state.renewable
        expires_at = entry.expiry?.iso8601
        expires_in_seconds = entry.expiry.map { ($0 - now).seconds }
        created_at = a.createdAt.iso8601
        `default` = isDefault
        last_sign_in_at = a.lastSignInAt?.iso8601
        last_used_at = a.lastUsedAt?.iso8601
        last_error = a.lastError.map { ErrorJSON(class: Self.documentedClass[$0.errorClass]!, code: $0.code, remedy: $0.remedy, at: $0.at.iso8601) }
        failed_attempts = a.failedAttempts
        access_tokens = c.accessTokens.map {
            AccessTokenJSON(scopes: $0.scopes, token_type: $0.tokenType, obtained_at: $0.obtainedAt.iso8601,
                            expires_at: $0.expiresAt?.iso8601, valid: $0.isValid(at: now, skew: skew))
        }
        refresh_token = c.refreshToken.map {
            RefreshTokenJSON(generation: $0.generation, obtained_at: $0.obtainedAt.iso8601, expires_at: $0.expiresAt?.iso8601)
        }
        cookies = c.cookies.map {
            CookieJSON(name: $0.name, domain: $0.domain, path: $0.path, expires_at: $0.expiresAt?.iso8601,
                       secure: $0.secure, http_only: $0.httpOnly)
        }
        id_token_claims = Dictionary(uniqueKeysWithValues: c.idTokenClaims.map { ($0.key, Claim(name: $0.key, value: $0.value)) })
        quarantined_at = a.quarantinedAt?.iso8601
    }
}
