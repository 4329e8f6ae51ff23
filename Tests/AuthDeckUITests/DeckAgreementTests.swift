import Testing
import AuthDeckCore
import AuthDeckTestSupport
import AuthDeckConfig
@testable import AuthDeckUI

/// What one frame says of an account agrees with itself (issue 39, item 15): the status line
/// never claims a result the row does not show yet, and the detail pane names no realm where
/// none applies.
@Suite struct DeckAgreementTests {
    func lines(_ s: DeckState) -> [String] { DeckRenderer.render(s).text.components(separatedBy: "\n") }

    /// The fixture's rows with `id`'s token made valid for an hour: the store after its sign-in.
    func rowsAfterSignIn(of id: String) throws -> (rows: [DeckRow], providers: [DeckProvider]) {
        let now = DeckTestState.now
        let config = try ConfigLoader.parse(DeckFixture.configTOML, path: "config.toml")
        var accounts = DeckFixture(now: now).accounts
        let i = try #require(accounts.firstIndex { $0.account.id == id })
        accounts[i].credentials.accessTokens[0].expiresAt = now + .hours(1)
        let assessment = DeckAssessment(accounts: accounts, providers: config.knownProviders, statePolicy: config.statePolicy,
                                        pruneSettings: config.pruneSettings, now: now)
        return DeckSnapshot.make(assessment, providers: config.providers, skew: config.statePolicy.clockSkew) { _ in [] }
    }

    /// "Signed in work/hanako…" stood in the status line for a frame while the row still read
    /// expired: the message now waits for the rows that show the sign-in.
    @Test(arguments: [(120, 40), (80, 24), (60, 15)])
    func theStatusLineWaitsForTheRowThatShowsTheResult(width: Int, height: Int) throws {
        var s = DeckTestState.make(width: width, height: height)
        let id = "work/0000a003"
        let name = s.accountName(id)
        func row(_ screen: [String]) -> String? { screen.first { $0.contains("hanako") } }
        #expect(DeckReducer.reduce(&s, .signInFinished(id: id, failure: nil)) == [.reload])
        let before = lines(s)
        #expect(!before.joined(separator: "\n").contains("Signed in"), "\(before.joined(separator: "\n"))")
        #expect(row(before).map { $0.contains("expired") } ?? true, "\(row(before) ?? "")")
        let (rows, providers) = try rowsAfterSignIn(of: id)
        _ = DeckReducer.reduce(&s, .loaded(rows: rows, providers: providers, now: DeckTestState.now))
        let after = lines(s)
        #expect(after.joined(separator: "\n").contains("Signed in \(name)."), "\(after.joined(separator: "\n"))")
        #expect(row(after).map { !$0.contains("expired") } ?? true, "\(row(after) ?? "")")
        // A renewal's message waits for its own row's reread; a failure is said at once.
        _ = DeckReducer.reduce(&s, .renewFinished(id: "sp/0000a012", failure: nil))
        #expect(s.message == "Signed in \(name).")
        _ = DeckReducer.reduce(&s, .rowsUpdated(ids: ["work/0000a001"], rows: [], changesAt: nil))
        #expect(s.message == "Signed in \(name).", "another account's rows release nothing")
        _ = DeckReducer.reduce(&s, .rowsUpdated(ids: ["sp/0000a012"], rows: s.rows.filter { $0.id == "sp/0000a012" }, changesAt: nil))
        #expect(s.message == "Renewed \(s.accountName("sp/0000a012")).")
        _ = DeckReducer.reduce(&s, .renewFinished(id: "sp/0000a012", failure: "network down"))
        #expect(s.message == "\(s.accountName("sp/0000a012")): network down")
    }

    /// "realm -" stood on an OIDC account's detail, where no realm applies: left out.
    @Test func noRealmIsShownWhereNoneApplies() throws {
        let s = DeckTestState.make(width: 120, height: 40)
        let oidc = try #require(s.rows.first { $0.id == "gl/0000a006" })
        let first = try #require(oidc.detail(now: DeckTestState.now).first)
        #expect(!first.contains("realm"), "\(first)")
        #expect(first.hasSuffix("· id gl/0000a006"), "\(first)")
        let tenant = try #require(s.rows.first { $0.id == "work/0000a001" })
        #expect(tenant.detail(now: DeckTestState.now).first?.contains("· realm \(DeckFixture.prodTenant) ·") == true)
    }
}
