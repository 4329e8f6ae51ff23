import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckOAuth
import AuthDeckProviders
import AuthDeckVault
import AuthDeckPlatform

/// One parser that reads text or bytes from outside (a pasted URL, another tool's file, a
/// server's answer) and must end every input in a value or a thrown error — never a crash,
/// a hang or unbounded memory.
struct FuzzTarget: Sendable {
    let name: String
    /// Tokens the mutator inserts: the syntax the parser keys on.
    let dictionary: [String]
    let run: @Sendable ([UInt8]) -> Void

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Every target, named as the corpus directories under Tests/fuzz/corpus.
    static func all(scratch: String) -> [FuzzTarget] {
        let firefox = scratch + "/cookies.sqlite"
        return [
            FuzzTarget(name: "oam-url", dictionary: ["::=", "&", "%", "%2", "wp://settings?", "OAMMSURL", "AuthServerType", "OAuthConnect", "http://"]) {
                _ = try? OAMConfigURL.parse(text($0)).profile(id: "x")
            },
            FuzzTarget(name: "netscape-cookies", dictionary: ["\t", "\n", "#HttpOnly_", "TRUE", "FALSE", "-1", "99999999999999999999"]) {
                if let cookies = try? NetscapeCookieJar.parse(text($0), makeID: { "id" }) { _ = try? NetscapeCookieJar.lines(cookies) }
            },
            FuzzTarget(name: "firefox-cookies", dictionary: ["moz_cookies", "SQLite format 3\0", "\u{0}\u{0}"]) { bytes in
                // Through a real file: the reader opens it with SQLite, as `import cookies` does.
                guard FileManager.default.createFile(atPath: firefox, contents: Data(bytes)) else { return }
                _ = try? FirefoxCookieReader.read(firefox, makeID: { "id" })
            },
            FuzzTarget(name: "msal-cache", dictionary: ["{", "}", "[", "\"", "\"secret\":", "\"home_account_id\":", "\"expires_on\":", "null", "1e999", "\\u0000"]) {
                if let cache = try? MSALCache(bytes: $0) { _ = cache.entries }
            },
            FuzzTarget(name: "jwt", dictionary: [".", "eyJ", "-", "_", "=", "eyJhbGciOiJub25lIn0"]) { bytes in
                if let jwt = try? JWT(compact: text(bytes)) {
                    _ = (jwt.algorithm, jwt.claims.scalarStrings)
                    _ = try? IDTokenValidator(issuer: "https://idp.example", clientId: "a", clientSecret: Secret("s"), keys: nil)
                        .validate(Secret(text(bytes)), now: Instant(secondsSinceEpoch: 1_800_000_000), nonce: nil)
                }
            },
            FuzzTarget(name: "config", dictionary: ["[[provider]]", "[prune]", "[hooks]", "=", "\"", "{", "}", "kind = \"oidc\"", "renew_before = ", "\n"]) {
                _ = try? ConfigLoader.parse(text($0), path: "fuzz.toml")
            },
            FuzzTarget(name: "theme", dictionary: ["[header]", "fg = ", "bg = ", "\"red\"", "true", "[", "]", "\n"]) {
                _ = try? ThemeLoader.parse(text($0), name: "fuzz", path: "fuzz.toml")
            },
            // The front's records in the store's meta table: a keyless writer controls these
            // bytes (their seals are checked after parsing), so parsing must never trap, and
            // only the canonical form may parse.
            FuzzTarget(name: "fast-path-records", dictionary: ["0:", "1:", "2:", "9:", "-", "+", "\n", "99999999:", "9223372036854775808"]) { bytes in
                let text = text(bytes)
                if let record = FrontRecord(encoded: text) {
                    precondition(record.encoded == text && FrontRecord(encoded: record.encoded) == record, "not canonical")
                }
                if let record = StatusFastPath(encoded: text) {
                    precondition(record.encoded == text && StatusFastPath(encoded: record.encoded) == record, "not canonical")
                }
            },
            FuzzTarget(name: "soap", dictionary: ["<S:Fault>", ":Fault>", "</", ">", "<", ":Text", "BinarySecurityToken", "&amp;", "&lt;", "0x8004882c"]) {
                _ = try? SAMLTokenResponse.token(from: text($0))
            },
        ]
    }
}
