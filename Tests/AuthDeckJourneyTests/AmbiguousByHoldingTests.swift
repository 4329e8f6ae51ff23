import Testing
import Foundation
import AuthDeckTestSupport

/// A name several accounts share is narrowed to the accounts that could answer the command
/// (a trial's `token taro` listed a SharePoint account whose pick then failed, and `cookies
/// taro` was refused though one account held cookies): `token` among token holders, `cookies`
/// among cookie holders; the list that remains is aligned.
@Suite(.serialized) struct AmbiguousByHoldingTests {
    let home = TempDirectory("authdeck-holding")
    let idp: EmulatorProcess
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig(idp.workAndIntranetTOML())
        let work = try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"], env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        try #require(work.status == 0, "\(work.stderr)")
        let sp = try runner.run(["login", "sp-intranet"])
        try #require(sp.status == 0, "\(sp.stderr)")
    }

    @Test func aSharedUsernameNamesTheOneAccountThatHoldsWhatIsAsked() throws {
        // Both accounts are taro's: a name that matches two.
        let events = try runner.run(["events", "--account", "taro@contoso.com", "--no-input"])
        #expect(events.status == 2 && events.stderr.contains("matches 2 accounts"), "\(events.stdout) \(events.stderr)")
        let token = try runner.run(["token", "taro@contoso.com", "--no-input"])
        #expect(token.status == 0 && token.stdout.hasPrefix("at."), "\(token.stdout) \(token.stderr)")
        let cookies = try runner.run(["cookies", "taro@contoso.com", "--no-input"])
        #expect(cookies.status == 0 && cookies.stdout.contains("\tSPOIDCRL\t"), "\(cookies.stdout) \(cookies.stderr)")
    }
}
