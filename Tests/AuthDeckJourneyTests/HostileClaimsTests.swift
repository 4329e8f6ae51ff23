import Testing
import Foundation
import AuthDeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 38, section 5, through the real binaries: a directory user whose username holds a NUL
/// (`preferred_username` `bob\u0000evil…` in the emulator's id_token) signs in; authdeck refuses
/// the sign-in and saves nothing, so bob stays the only bob and his account stays whole.
@Suite(.serialized) struct HostileClaimsTests {
    let home = TempDirectory("authdeck-claims")
    let idp: EmulatorProcess
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig(idp.workAndIntranetTOML())
    }

    /// Adds a directory user named `prefix<N>@<domain>` and returns the name.
    func addUser(prefix: String) throws -> String {
        let answer = try idp.admin("users", #"{"count":1,"prefix":"\#(prefix)","password":"claims-pass-1"}"#)
        let added = try #require((try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])?["added"] as? [String])
        return try #require(added.first)
    }

    /// `login work --device`, approved as `user` (a JSON string body, escapes allowed).
    func deviceLogin(as jsonUser: String) throws -> (status: Int32, stderr: String) {
        let login = try LiveProcess(runner.executable, ["login", "work", "--device"], environment: runner.environment)
        let code = try login.waitFor("the user code") { text -> String? in
            guard let r = text.range(of: "enter the code ") else { return nil }
            let c = text[r.upperBound...].prefix { $0.isLetter || $0.isNumber }
            return c.count >= 8 ? String(c) : nil
        }
        try idp.approve(userCode: code, as: jsonUser)
        return (try login.wait(), login.stderr)
    }

    func accounts() throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(try runner.run(["accounts", "--json"]).stdout.utf8)) as? [[String: Any]])
    }

    @Test func aUsernameWithANulIsRefusedAndNothingIsSaved() throws {
        let bob = try addUser(prefix: "bob")
        let first = try deviceLogin(as: bob)
        #expect(first.status == 0, "\(first.stderr)")
        // The emulator's users are JSON strings: `\u0000` is a NUL in the name it signs.
        let evil = try addUser(prefix: #"bob\u0000evil"#)
        let evilJSON = evil.replacingOccurrences(of: "\u{0}", with: #"\u0000"#)
        let refused = try deviceLogin(as: evilJSON)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("username holding the control character U+0000 at character 4") && refused.stderr.contains("nothing was saved"),
                "\(refused.stderr)")
        let listed = try accounts()
        #expect(listed.count == 1 && listed.first?["username"] as? String == bob, "\(listed)")
        // bob is one account, whose token is given without a tamper alarm.
        let token = try runner.run(["token", bob])
        #expect(token.status == 0 && !token.stdout.isEmpty, "\(token.stderr)")
        let prefix = try runner.run(["token", "bob"])
        #expect(prefix.status == 0 && prefix.stdout == token.stdout, "\(prefix.stderr)")
    }

    /// An MSAL cache is a sign-in too (`import msal`): its account whose username holds a NUL
    /// is skipped, saying why, and the other one imported.
    @Test func anMSALCacheAccountWithANulIsSkipped() throws {
        func account(_ uid: String, _ username: String) -> (String, [String: String]) {
            ("\(uid).\(EmulatorProcess.contoso)-login.microsoftonline.com-\(EmulatorProcess.contoso)",
             ["home_account_id": "\(uid).\(EmulatorProcess.contoso)", "environment": "login.microsoftonline.com",
              "realm": EmulatorProcess.contoso, "username": username, "authority_type": "MSSTS", "local_account_id": uid])
        }
        func refreshToken(_ uid: String) -> (String, [String: String]) {
            ("\(uid).\(EmulatorProcess.contoso)-login.microsoftonline.com-refreshtoken-\(EmulatorProcess.publicClient)--",
             ["home_account_id": "\(uid).\(EmulatorProcess.contoso)", "environment": "login.microsoftonline.com", "credential_type": "RefreshToken",
              "client_id": EmulatorProcess.publicClient, "secret": "rt-msal-\(uid)"])
        }
        let entries = [account("u1", "carol@contoso.com"), account("u2", "carol\u{0}evil@contoso.com")]
        let cache: [String: Any] = ["Account": Dictionary(uniqueKeysWithValues: entries),
                                    "RefreshToken": Dictionary(uniqueKeysWithValues: [refreshToken("u1"), refreshToken("u2")])]
        let path = home.file("msal.json")
        try JSONSerialization.data(withJSONObject: cache).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        let r = try runner.run(["import", "msal", path, "--provider", "work"])
        #expect(r.status == 0 && r.stdout.contains("Imported 1: carol@contoso.com"), "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("its username holds the control character U+0000 at character 6"), "\(r.stderr)")
        let listed = try accounts()
        #expect(listed.map { $0["username"] as? String } == ["carol@contoso.com"], "\(listed)")
    }
}
