import Testing
import AuthDeckCore

/// The agent's policy values: `[[agent]]` host globs and account names, the cookies a URL is
/// sent, and the event detail that must read back exactly as written.
@Suite struct AgentAllowTests {
    let taro = Account(id: "work/a0", providerId: "work", subject: "s", username: "Taro@contoso.com", displayName: "", realm: nil,
                       createdAt: Instant(secondsSinceEpoch: 0), lastSignInAt: nil, lastUsedAt: nil, lastError: nil)

    @Test func hostGlobsMatchWholeNamesCaseInsensitively() {
        let entry = AgentAllow(host: "build-*.corp", accounts: ["work"])
        #expect(entry.matches(host: "build-7.corp") && entry.matches(host: "BUILD-x.y.corp"))
        #expect(!entry.matches(host: "build-7.corp.evil") && !entry.matches(host: "xbuild-7.corp"))
        #expect(AgentAllow(host: "h?st", accounts: []).matches(host: "host") && !AgentAllow(host: "h?st", accounts: []).matches(host: "hoost"))
        #expect(AgentAllow(host: "*", accounts: []).matches(host: "") && AgentAllow(host: "a*b*c", accounts: []).matches(host: "aXbYbZc"))
    }

    @Test func accountsAreNamedExactlyNeverByPrefix() {
        for name in ["work/a0", "work", "taro@contoso.com", "work/taro@contoso.com"] {
            #expect(AgentAllow(host: "*", accounts: [name]).names(taro), "\(name)")
        }
        for name in ["work/a", "taro", "wor", "other"] {
            #expect(!AgentAllow(host: "*", accounts: [name]).names(taro), "\(name)")
        }
    }

    @Test func scopesAndExpiry() {
        let limited = AgentAllow(host: "*", accounts: ["work"], scopes: ["a", "b"], expires: Instant(secondsSinceEpoch: 100))
        #expect(limited.covers(scopes: ["a"]) && !limited.covers(scopes: ["a", "c"]) && !limited.covers(scopes: nil), "a cookie is not a scope")
        #expect(AgentAllow(host: "*", accounts: []).covers(scopes: nil))
        #expect(!limited.expired(at: Instant(secondsSinceEpoch: 99)) && limited.expired(at: Instant(secondsSinceEpoch: 100)))
    }

    @Test func aCookieGoesWhereABrowserWouldSendIt() {
        func cookie(_ domain: String, _ path: String = "/", secure: Bool = true) -> Cookie {
            Cookie(id: "c", name: "n", value: Secret("v"), domain: domain, path: path, secure: secure)
        }
        #expect(cookie(".sharepoint.com").goes(to: "https://contoso.sharepoint.com/sites/x"))
        #expect(cookie("contoso.sharepoint.com").goes(to: "https://contoso.sharepoint.com/"))
        #expect(!cookie("contoso.sharepoint.com").goes(to: "https://other.sharepoint.com/"))
        #expect(!cookie(".sharepoint.com").goes(to: "https://evilsharepoint.com/"))
        #expect(cookie("h.test", "/sites").goes(to: "https://h.test/sites/a") && !cookie("h.test", "/sites").goes(to: "https://h.test/sitesx"))
        #expect(!cookie("h.test").goes(to: "http://h.test/"), "a secure cookie never over plain http")
        #expect(cookie("127.0.0.1").goes(to: "http://127.0.0.1:8080/x"), "loopback keeps it private")
    }

    @Test func theEventDetailReadsBackExactlyAndHoldsNoSpacesOfItsOwn() throws {
        let handOut = AgentHandOut(host: "evil host=x%", hostClaimed: true, session: nil, accountId: "work/a0", audience: "https://a b",
                                   client: "git\ncredential", op: "git", expiresAt: Instant(secondsSinceEpoch: 1_800_000_000),
                                   reason: "allow #2", peerPid: 9, peerUid: 1000)
        #expect(AgentHandOut(detail: handOut.detail) == handOut)
        #expect(!handOut.detail.contains("\n") && handOut.detail.split(separator: " ").count == 10)
        #expect(handOut.sentence(refused: false).contains("evil host=x% (as it says)"))
        #expect(AgentHandOut(detail: "renewed") == nil)
    }

    @Test func commandWordsSplitAsAShellWouldWithoutOne() {
        #expect(CommandWords.split(#"zenity --question --text "a b" 'c d' e\ f"#) == ["zenity", "--question", "--text", "a b", "c d", "e f"])
        #expect(CommandWords.split("  ") == [])
        #expect(CommandWords.split(#"a "b"#) == nil && CommandWords.split("a\\") == nil)
    }
}
