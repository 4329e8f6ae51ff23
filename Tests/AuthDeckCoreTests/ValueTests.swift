import Testing
import Foundation
import AuthDeckCore

/// Time values, matching, cookie jars and terminal-safe text.
@Suite struct ValueTests {
    @Test(arguments: [("90d", 7_776_000), ("1h30m", 5400), ("45s", 45), ("2w", 1_209_600), ("120", 120), (" 10m ", 600)])
    func timeSpanParses(text: String, seconds: Int64) {
        #expect(TimeSpan(parsing: text)?.seconds == seconds)
    }

    @Test(arguments: ["", "d", "10x", "1.5h", "-3d", "h10", "10m5", "99999999999999999999d"])
    func timeSpanRejects(text: String) {
        #expect(TimeSpan(parsing: text) == nil)
    }

    @Test func timeSpanFormats() {
        #expect(TimeSpan.seconds(724).compact == "12m 04s")
        #expect(TimeSpan.seconds(3 * 3600 + 5 * 60).compact == "3h 05m")
        #expect(TimeSpan.days(2).compact == "2d 00h")
        #expect(TimeSpan.seconds(5400).description == "1h30m")
        #expect(TimeSpan(parsing: TimeSpan.seconds(93_784).description)?.seconds == 93_784)
    }

    @Test func instantFormatsAsRFC3339() {
        #expect(Instant(secondsSinceEpoch: 0).iso8601 == "1970-01-01T00:00:00Z")
        #expect(Instant(secondsSinceEpoch: 1_795_000_000).iso8601 == "2026-11-18T11:06:40Z")
        #expect(Instant(secondsSinceEpoch: 951_782_400).iso8601 == "2000-02-29T00:00:00Z")
        #expect(Instant(secondsSinceEpoch: -1).iso8601 == "1969-12-31T23:59:59Z")
        // Years outside 0–9999 still said, in as many digits as they need.
        #expect(Instant(secondsSinceEpoch: 253_402_300_800).iso8601 == "10000-01-01T00:00:00Z")
        #expect(Instant(secondsSinceEpoch: 253_402_300_799).iso8601 == "9999-12-31T23:59:59Z")
        #expect(Instant(secondsSinceEpoch: -62_167_219_200).iso8601 == "0000-01-01T00:00:00Z")
    }

    /// `iso8601` agrees with Foundation's ISO 8601 formatter from 1601 (the Gregorian
    /// calendar throughout) to 9999, at random seconds.
    @Test func instantDigitsMatchFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let seconds = Int64.random(in: -11_644_473_600...253_402_300_799, using: &generator)
            #expect(Instant(secondsSinceEpoch: seconds).iso8601 == formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))),
                    "\(seconds)")
        }
    }

    /// `Utf8Prefix` orders texts as their first 16 UTF-8 bytes do (a shorter text first when
    /// it is a prefix), and texts that share those bytes have equal keys.
    @Test func utf8PrefixOrdersAsTheBytesDo() {
        let texts = ["", "a", "ab", "b", "contoso/00000001", "contoso/00000002", "contoso/000000010", "contoso/0000000100",
                     "é", "e\u{301}", "本番", "\u{7f}", "Zed", "zed", "0123456789abcdef", "0123456789abcdeg", "0123456789abcdef!"]
        for a in texts {
            for b in texts {
                let pa = Array(a.utf8.prefix(16)), pb = Array(b.utf8.prefix(16))
                #expect((Utf8Prefix(a) < Utf8Prefix(b)) == pa.lexicographicallyPrecedes(pb), "\(a) < \(b)")
                #expect((Utf8Prefix(a) == Utf8Prefix(b)) == (pa == pb), "\(a) == \(b)")
            }
        }
    }

    @Test func expiryText() {
        let now = Instant(secondsSinceEpoch: 1000)
        #expect(ExpiryText.describe(now + .seconds(724), now: now) == "in 12m 04s")
        #expect(ExpiryText.describe(now - .hours(3), now: now) == "expired 3h 00m ago")
        #expect(ExpiryText.describe(nil, now: now, neverExpires: true) == "no expiry")
        #expect(ExpiryText.ago(nil, now: now) == "never")
    }

    func acct(_ id: String, _ user: String) -> Account {
        Account(id: id, providerId: String(id.split(separator: "/")[0]), subject: id, username: user,
                createdAt: Instant(secondsSinceEpoch: 0))
    }

    @Test func matcherResolvesIdsUsernamesAndPrefixes() {
        let all = [acct("work/aa11", "taro@contoso.com"), acct("prod/bb22", "taro@contoso.com"), acct("fb/cc33", "hanako")]
        #expect(AccountMatcher.resolve("work/aa11", in: all) == .found(all[0]))
        #expect(AccountMatcher.resolve("prod/TARO@contoso.com", in: all) == .found(all[1]))
        #expect(AccountMatcher.resolve("hanako", in: all) == .found(all[2]))
        #expect(AccountMatcher.resolve("fb", in: all) == .found(all[2]))
        #expect(AccountMatcher.resolve("han", in: all) == .found(all[2]))
        #expect(AccountMatcher.resolve("taro@contoso.com", in: all) == .ambiguous([all[1], all[0]]))
        #expect(AccountMatcher.resolve("t", in: all) == .ambiguous([all[1], all[0]]))
        #expect(AccountMatcher.resolve("nobody", in: all) == .notFound)
        // A provider id names its account even when another provider's id starts with it.
        let fb = [acct("fb/aa11", "x"), acct("fbs/bb22", "y")]
        #expect(AccountMatcher.resolve("fb", in: fb) == .found(fb[0]))
        #expect(AccountMatcher.resolve("fbs", in: fb) == .found(fb[1]))
        #expect(AccountMatcher.resolve("  ", in: all) == .notFound)
        // Issue 31: `work/taro` (provider and the start of a username) found nothing.
        #expect(AccountMatcher.resolve("work/taro", in: all) == .found(all[0]))
        #expect(AccountMatcher.resolve("prod/TA", in: all) == .found(all[1]))
        let two = [acct("work/aa11", "taro@contoso.com"), acct("work/bb22", "taro@fabrikam.com")]
        #expect(AccountMatcher.resolve("work/taro", in: two) == .ambiguous([two[0], two[1]]))
        #expect(AccountMatcher.resolve("work/taro@f", in: two) == .found(two[1]))
    }

    /// Issue 38: a default (`authdeck use`) whose account was deleted without the key made the
    /// provider id name the provider's other account. It names nothing now, whatever is left.
    @Test func aProviderIdWhoseDefaultIsGoneNamesNoAccount() {
        let left = [acct("work/bb22", "hanako@contoso.com"), acct("gh/cc33", "workshop@example.org")]
        let defaults = ["work": "work/aa11"]
        #expect(AccountMatcher.resolve("work", in: left) { defaults[$0] } == .defaultMissing(provider: "work", id: "work/aa11"))
        #expect(AccountMatcher.resolve("WORK", in: left) { defaults[$0] } == .defaultMissing(provider: "work", id: "work/aa11"))
        // Every account of the provider gone: its id is no prefix of another provider's username.
        #expect(AccountMatcher.resolve("work", in: [left[1]]) { defaults[$0] } == .defaultMissing(provider: "work", id: "work/aa11"))
        #expect(AccountMatcher.resolve("work", in: [left[1]]) == .found(left[1]), "no default: a prefix, as before")
        // Named otherwise, the remaining account is still found; a default that is there still decides.
        #expect(AccountMatcher.resolve("hanako", in: left) { defaults[$0] } == .found(left[0]))
        let both = [acct("work/aa11", "taro@contoso.com")] + left
        #expect(AccountMatcher.resolve("work", in: both) { defaults[$0] } == .found(both[0]))
        #expect(AccountMatcher.resolve("work", in: left) == .found(left[0]), "no default recorded: the sole account")
    }

    @Test func netscapeJarRoundTrips() throws {
        let cookies = [
            Cookie(id: "1", name: "FedAuth", value: Secret("77u/PD94"), domain: "contoso.sharepoint.com", path: "/",
                   expiresAt: Instant(secondsSinceEpoch: 1_800_000_000), secure: true, httpOnly: true),
            Cookie(id: "2", name: "rtFa", value: Secret("abc"), domain: ".sharepoint.com", path: "/", expiresAt: nil,
                   secure: true, httpOnly: false),
        ]
        let text = try NetscapeCookieJar.render(cookies)
        #expect(text.contains("#HttpOnly_contoso.sharepoint.com\tFALSE\t/\tTRUE\t1800000000\tFedAuth\t77u/PD94\n"))
        #expect(text.contains(".sharepoint.com\tTRUE\t/\tTRUE\t0\trtFa\tabc\n"))
        var n = 0
        let back = try NetscapeCookieJar.parse(text) { n += 1; return String(n) }
        #expect(back.map(\.name) == ["FedAuth", "rtFa"])
        #expect(back.map(\.value) == cookies.map(\.value))
        #expect(back.map(\.expiresAt) == cookies.map(\.expiresAt))
        #expect(back.map(\.httpOnly) == [true, false])
        #expect(try NetscapeCookieJar.headerValue(cookies) == "FedAuth=77u/PD94; rtFa=abc")
    }

    @Test func netscapeJarErrorsNameTheLine() {
        #expect(throws: NetscapeCookieJar.ParseError(line: 2, problem: "expected 7 tab-separated fields, found 3")) {
            try NetscapeCookieJar.parse("# c\na\tb\tc\n") { "x" }
        }
        #expect(throws: NetscapeCookieJar.ParseError(line: 1, problem: "expiry \"soon\" is not a number of seconds")) {
            try NetscapeCookieJar.parse("h\tFALSE\t/\tTRUE\tsoon\tn\tv") { "x" }
        }
    }

    @Test func terminalTextIsInert() {
        let hostile = "\u{1b}]0;owned\u{07}\u{1b}[2J名前\u{202E}"
        let safe = TerminalText.inert(hostile)
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x202E })
        #expect(safe == "␛]0;owned␇␛[2J名前\u{FFFD}")
    }

    @Test func secretNeverPrintsItself() {
        let s = Secret("hunter2")
        #expect("\(s)" == "‹redacted›")
        #expect(String(describing: [s]).contains("hunter2") == false)
        #expect(String(reflecting: s).contains("hunter2") == false)
    }

    @Test func accountIdsArePrefixedAndHex() {
        var rng = SystemRandomNumberGenerator()
        let id = Account.makeID(provider: "work", using: &rng)
        #expect(id.hasPrefix("work/") && id.count == 13)
        #expect(id.dropFirst(5).allSatisfy { $0.isHexDigit })
    }

    @Test func inertChangesExactlyControlsC1AndBidiMarksWhateverSurroundsThem() {
        // The byte-level shortcut must agree with the scalar rules for every scalar up to
        // U+3000, alone and between multi-byte neighbours (é, —, ·).
        for v in UInt32(0)..<0x3000 {
            guard let scalar = Unicode.Scalar(v) else { continue }
            let replaced = v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x200E || v == 0x200F
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            // …and at every place of a longer ASCII text, where eight bytes are checked at a time.
            let ascii = Array("abcdefgh~ ZYX0123")
            let around = (0...ascii.count).map { String(ascii[..<$0]) + String(Character(scalar)) + String(ascii[$0...]) }
            for text in [String(Character(scalar)), "é—\(Character(scalar))·x"] + (v < 0x100 ? around : []) {
                #expect((TerminalText.inert(text) != text) == replaced, "U+\(String(v, radix: 16))")
            }
        }
    }
}
