import Testing
import Foundation
import AuthDeckTestSupport

/// `token --format xoauth2` and `token --decode` (issue 39) after a real sign-in to the
/// emulator, through the front binary that hands both to authdeck-full.
@Suite struct TokenFormatEmulatorTests {
    let home = TempDirectory("authdeck-token-format")
    let idp: EmulatorProcess
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig(idp.workAndIntranetTOML())
        let r = try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"], env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        try #require(r.status == 0, "\(r.stderr)")
    }

    /// The XOAUTH2 string carries the very token `token` prints, with the account's username;
    /// the emulator's opaque token has nothing to decode, and the error does not print it.
    @Test func xoauth2CarriesTheSignedInTokenAndAnOpaqueTokenIsNotDecoded() throws {
        let plain = try runner.run(["token", "work"])
        try #require(plain.status == 0, "\(plain.stderr)")
        let token = plain.stdout.trimmingCharacters(in: .newlines)

        let x = try runner.run(["token", "work", "--format", "xoauth2"])
        #expect(x.status == 0, "\(x.stderr)")
        let decoded = try #require(Data(base64Encoded: x.stdout.trimmingCharacters(in: .newlines)), "\(x.stdout)")
        #expect(String(decoding: decoded, as: UTF8.self) == "user=taro@contoso.com\u{1}auth=Bearer \(token)\u{1}\u{1}")

        let d = try runner.run(["token", "work", "--decode"])
        #expect(d.status == 1 && d.stdout.isEmpty, "\(d.stdout) \(d.stderr)")
        #expect(d.stderr.contains("the access token is not a JWT"), "\(d.stderr)")
        #expect(!d.stderr.contains(token), "\(d.stderr)")
    }
}
