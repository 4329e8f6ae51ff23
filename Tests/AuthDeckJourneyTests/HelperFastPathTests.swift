import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform
import AuthDeckVault

/// The front answers git's and kubectl's helpers itself (issue 28's speed goal) when the
/// routed account's cached token is certainly valid, byte for byte as `authdeck-full` does,
/// and hands every other call over with its request intact.
///
/// A copy of the front alone in a directory (`lone`) shows which calls it answers itself: a
/// handed-over call fails there with "cannot find authdeck-full". A copy beside a stand-in
/// `authdeck-full` script (`decoy`) shows what a handed-over call receives.
@Suite struct HelperFastPathTests {
    let dir = TempDirectory("authdeck-helpers")
    let fixture: DeckFixture
    let env: [String: String]
    let runner: BinaryRunner
    let lone: BinaryRunner
    let decoy: BinaryRunner
    var storePath: String { dir.file("data/authdeck/authdeck.db") }
    var configPath: String { dir.file("config/authdeck/config.toml") }
    var validToken: String { fixture.secrets[0] }
    static let kubeV1beta1 = #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false}}"#
    static let routes = """

        [[credential]]
        url = "https://dev.azure.com/contoso"
        account = "work/0000a001"
        scopes = ["User.Read"]

        [[credential]]
        url = "https://dev.azure.com/contoso/expired"
        account = "work/0000a003"

        [[credential]]
        url = "https://dev.azure.com/named"
        account = "jiro"
        username = "builder"

        [[credential]]
        url = "https://dev.azure.com/default"
        account = "work"

        [[credential]]
        url = "http://git.plain.example/team"
        account = "work/0000a001"

        [[credential]]
        url = "https://dev.azure.com/broken"
        account = "work/0000a001"
        username = "taro\\nurl=https://evil.example"

        """

    init() throws {
        env = ["HOME": dir.path, "XDG_DATA_HOME": dir.file("data"), "XDG_CONFIG_HOME": dir.file("config"),
               "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        runner = BinaryRunner(product: "authdeck", environment: env)
        lone = BinaryRunner(executable: dir.file("lone/authdeck"), environment: env)
        decoy = BinaryRunner(executable: dir.file("decoy/authdeck"), environment: env)
        fixture = DeckFixture(now: SystemClock().now())
        let store = try openStore()
        for stored in fixture.accounts { try store.insert(stored) }
        try FileManager.default.createDirectory(atPath: dir.file("config/authdeck"), withIntermediateDirectories: true)
        try (DeckFixture.configTOML + Self.routes).write(toFile: configPath, atomically: true, encoding: .utf8)
        for copy in ["lone", "decoy"] {
            try FileManager.default.createDirectory(atPath: dir.file(copy), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: runner.executable, toPath: dir.file("\(copy)/authdeck"))
        }
        // A stand-in that says how it was called and keeps what it was given on stdin.
        try "#!/bin/sh\nprintf 'handed over: %s\\n' \"$*\"\ncat > '\(dir.file("decoy/stdin"))'\nexit 7\n"
            .write(toFile: dir.file("decoy/authdeck-full"), atomically: true, encoding: .utf8)
        chmod(dir.file("decoy/authdeck-full"), 0o755)
    }

    func openStore() throws -> DeckStore {
        try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: env), clock: SystemClock())
    }

    static func request(_ path: String, host: String = "dev.azure.com") -> String {
        "protocol=https\nhost=\(host)\npath=\(path)\n\n"
    }

    /// Expects the lone front to have handed the call over (and so to have failed).
    func expectHandedOver(_ arguments: [String], stdin: String? = nil, env extra: [String: String] = [:], _ why: Comment) throws {
        let r = try lone.run(arguments, env: extra, stdin: stdin)
        #expect(r.status == 1 && r.stderr.contains("cannot find authdeck-full"), why)
        #expect(r.stdout.isEmpty, why)
    }

    /// Runs `arguments` through authdeck-full (which records the config) and then the lone
    /// front, and expects the very same answer from both.
    @discardableResult
    func expectSameAnswer(_ arguments: [String], stdin: String? = nil, env extra: [String: String] = [:]) throws -> String {
        let full = try runner.run(arguments, env: extra, stdin: stdin)
        #expect(full.status == 0 && !full.stdout.isEmpty, "\(arguments): \(full.stderr)")
        let fast = try lone.run(arguments, env: extra, stdin: stdin)
        #expect(fast.status == 0, "\(arguments): \(fast.stderr)")
        #expect(fast.stdout == full.stdout, "\(arguments): the front answered differently")
        #expect(fast.stderr.isEmpty && full.stderr.isEmpty, "\(arguments): \(fast.stderr) \(full.stderr)")
        return fast.stdout
    }

    @Test func gitsHelperIsAnsweredByTheFrontOnceTheRoutesAreRecorded() throws {
        let get = ["git-credential", "get"]
        try expectHandedOver(get, stdin: Self.request("contoso/repo.git"), "no record of the routes yet")
        let answer = try expectSameAnswer(get, stdin: Self.request("contoso/repo.git"))
        let expiry = try #require(fixture.accounts[0].credentials.accessTokens.first?.expiresAt)
        #expect(answer == "username=taro@contoso.com\npassword=\(validToken)\npassword_expiry_utc=\(expiry.secondsSinceEpoch)\n")
        // `url=` as git may send it, an entry's username, and the default account of a provider id.
        try expectSameAnswer(get, stdin: "url=https://DEV.azure.com/contoso/x\n\n")
        let named = try expectSameAnswer(get, stdin: Self.request("named/app.git"))
        #expect(named.hasPrefix("username=builder\npassword=\(fixture.secrets[2])\n"), "\(named)")
        try expectHandedOver(get, stdin: Self.request("default"), "`work` names several accounts and none is the default")
        try openStore().setDefaultAccount("work/0000a001", provider: "work")
        #expect(try expectSameAnswer(get, stdin: Self.request("default")) == answer)
        // A stand-in for authdeck-full that fails is never reached.
        let r = try decoy.run(get, stdin: Self.request("contoso/repo.git"))
        #expect(r.status == 0 && r.stdout == answer, "\(r.stdout) \(r.stderr)")
    }

    /// One record of the config for the front (`FrontRecord`), written by the token use case
    /// whichever command ran it: after `authdeck token` alone, the front answers git's and
    /// kubectl's helpers too, and after a helper's call, `token` (each command wrote a record
    /// of its own, and the front answered only the commands whose record was there).
    @Test func oneRecordWrittenByAnyTokenCallServesEveryFastCommand() throws {
        let get = ["git-credential", "get"]
        #expect(try runner.run(["token", "work/0000a001"]).stdout == validToken + "\n")
        let git = try lone.run(get, stdin: Self.request("contoso/repo.git"))
        #expect(git.status == 0 && git.stdout.hasPrefix("username=taro@contoso.com\npassword=\(validToken)\n"), "\(git.stderr)")
        let kube = try lone.run(["kube-credential", "work/0000a001"])
        #expect(kube.status == 0 && kube.stdout.contains(validToken), "\(kube.stderr)")
        // The other way round, from a store whose record was deleted: a helper's call records it.
        let sqlite = BinaryRunner(executable: "/usr/bin/sqlite3", environment: [:])
        #expect(try sqlite.run([storePath, "DELETE FROM meta WHERE key LIKE 'fast_%'"]).status == 0)
        try expectHandedOver(["token", "work/0000a001"], "no record")
        #expect(try runner.run(get, stdin: Self.request("named/app.git")).status == 0)
        #expect(try lone.run(["token", "work/0000a001"]).stdout == validToken + "\n")
        let record = try #require(try openStore().sealedRecord(FrontRecord.self))
        #expect(record.routes.map(\.account) == ["work/0000a001", "work/0000a003", "jiro", "work", "work/0000a001", "work/0000a001"])
        #expect(record.clockSkewSeconds == 60 && record.pins["prod"] == DeckFixture.prodTenant)
    }

    /// git's request read as git reads it, and a path that climbs out of its route (issue 38):
    /// neither binary gives contoso's token for `contoso/%2e%2e/evil` (nor `..`, `.`, `%2E%2E`,
    /// nor `url=` naming contoso followed by `host=` naming another), the front hands each
    /// over, and `url=` after `host=` still answers for the `url=`.
    @Test func bothBinariesFollowGitsRulesAndRefuseAClimbingPath() throws {
        let get = ["git-credential", "get"]
        let answer = try expectSameAnswer(get, stdin: Self.request("contoso/repo.git"))
        let climbing = ["contoso/%2e%2e/evil/_git/app", "contoso/%2E%2E/evil/_git/app", "contoso/../evil", "contoso/./app", "contoso/%252e%252e/evil"]
        for stdin in climbing.map({ Self.request($0) }) + ["url=https://dev.azure.com/contoso/%2e%2e/evil/_git/app\n\n"] {
            let full = try runner.run(get, stdin: stdin)
            #expect(full.status == 0 && full.stdout.isEmpty, "\(stdin): \(full.stdout)")
            #expect(full.stderr.contains("holds a dot segment") && full.stderr.contains("nothing was given to git"), "\(stdin): \(full.stderr)")
            try expectHandedOver(get, stdin: stdin, "\(stdin): a dot segment is authdeck-full's to refuse")
        }
        // git's rule: a later attribute replaces what `url=` set, and `url=` clears what came before.
        let later = "url=https://dev.azure.com/contoso/x\nhost=evil.example\n\n"
        let full = try runner.run(get, stdin: later)
        #expect(full.status == 0 && full.stdout.isEmpty && full.stderr.isEmpty, "\(full.stdout) \(full.stderr)")
        try expectHandedOver(get, stdin: later, "evil.example has no route")
        #expect(try expectSameAnswer(get, stdin: "host=evil.example\npath=x\nurl=https://dev.azure.com/contoso/repo.git\n\n") == answer)
        #expect(try expectSameAnswer(get, stdin: "protocol=https\r\nhost=dev.azure.com\r\npath=contoso/repo.git\r\n\r\n") == answer)
    }

    /// Issue 38: a token handed to a helper passes the one decision of where a secret may go.
    /// A route config names over plain http to another machine gets nothing from either binary
    /// (the front hands over; authdeck-full says why), nor does kubectl naming such a cluster.
    @Test func neitherBinaryHandsATokenToAToolSendingItOverPlainHttp() throws {
        let get = ["git-credential", "get"]
        _ = try expectSameAnswer(get, stdin: Self.request("contoso/repo.git"))  // records the routes for the front
        let plain = "protocol=http\nhost=git.plain.example\npath=team/repo.git\n\n"
        let full = try runner.run(get, stdin: plain)
        #expect(full.status == 0 && full.stdout.isEmpty, "\(full.stdout)")
        #expect(full.stderr.contains("over plain http") && full.stderr.contains("nothing was given to git"), "\(full.stderr)")
        try expectHandedOver(get, stdin: plain, "plain http: authdeck-full's to refuse")
        let cluster = #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false,"cluster":{"server":"http://k8s.plain.example:6443"}}}"#
        let kube = try runner.run(["kube-credential", "work/0000a001"], env: ["KUBERNETES_EXEC_INFO": cluster])
        #expect(kube.status != 0 && kube.stdout.isEmpty && kube.stderr.contains("over plain http"), "\(kube.stdout) \(kube.stderr)")
        try expectHandedOver(["kube-credential", "work/0000a001"], env: ["KUBERNETES_EXEC_INFO": cluster], "cluster info: authdeck-full's")
        let https = cluster.replacingOccurrences(of: "http://k8s.plain.example", with: "https://k8s.example")
        #expect(try runner.run(["kube-credential", "work/0000a001"], env: ["KUBERNETES_EXEC_INFO": https]).status == 0)
    }

    @Test func kubectlsPluginIsAnsweredByTheFrontOnceRecorded() throws {
        try expectHandedOver(["kube-credential", "work/0000a001"], "no record yet")
        let v1 = try expectSameAnswer(["kube-credential", "work/0000a001"])
        let expiry = try #require(fixture.accounts[0].credentials.accessTokens.first?.expiresAt)
        #expect(v1 == #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"expirationTimestamp":""#
            + expiry.iso8601 + #"","token":""# + validToken + "\"}}\n", "\(v1)")
        let beta = try expectSameAnswer(["kube-credential", "work/0000a001"], env: ["KUBERNETES_EXEC_INFO": Self.kubeV1beta1])
        #expect(beta.contains(#""apiVersion":"client.authentication.k8s.io/v1beta1""#))
        try expectSameAnswer(["kube-credential", "--scope", "User.Read", "work/0000a001", "--scope", "openid"])
        try expectSameAnswer(["kube-credential", "work/0000a001"], env: ["KUBERNETES_EXEC_INFO": #"{"apiVersion":"something/else","spec":{}}"#])
        let r = try decoy.run(["kube-credential", "work/0000a001"])
        #expect(r.status == 0 && r.stdout == v1, "\(r.stdout) \(r.stderr)")
    }

    @Test func handsOverWheneverItCannotBeSure() throws {
        #expect(try runner.run(["git-credential", "get"], stdin: Self.request("contoso")).status == 0)
        #expect(try lone.run(["git-credential", "get"], stdin: Self.request("contoso")).status == 0)
        let get = ["git-credential", "get"]
        try expectHandedOver(get, stdin: Self.request("contoso/expired/x.git"), "expired: only authdeck-full renews")
        try expectHandedOver(get, stdin: Self.request("elsewhere"), "no route: authdeck-full answers nothing")
        try expectHandedOver(get, stdin: "host=dev.azure.com\n\n", "no URL")
        try expectHandedOver(get, stdin: Self.request("broken"), "a line break in the username: authdeck-full says so")
        try expectHandedOver(["git-credential", "store"], stdin: Self.request("contoso"), "store: authdeck-full's")
        try expectHandedOver(["git-credential", "get", "--config", configPath], stdin: Self.request("contoso"), "options")
        try expectHandedOver(["kube-credential", "work/0000a003"], "expired")
        try expectHandedOver(["kube-credential", "work/0000a005"], "needs sign-in")
        try expectHandedOver(["kube-credential", "work/0000a001", "--scope", "Mail.Read"], "a scope the token lacks")
        try expectHandedOver(["kube-credential", "work/0000a001", "--scope=User.Read"], "a form the front does not parse")
        try expectHandedOver(["kube-credential", "work/0000a001", "--store", storePath], "options")
        try expectHandedOver(["kube-credential", "-h"], "help")
        try expectHandedOver(["kube-credential", "work/0000a001"], env: ["KUBERNETES_EXEC_INFO": #"{"apiVersion":"client.authentication.k8s.io\/v1beta1"}"#],
                             "an escape in the exec info")
        try expectHandedOver(["kube-credential", "work/0000a001"], env: ["KUBERNETES_EXEC_INFO": "not json"], "unreadable exec info")
        chmod(storePath, 0o644)
        try expectHandedOver(get, stdin: Self.request("contoso"), "loose store mode")
        chmod(storePath, 0o600)
        #expect(try lone.run(get, stdin: Self.request("contoso")).status == 0)
    }

    /// A handed-over call reaches authdeck-full with the very request git wrote, however long.
    @Test func aHandedOverRequestReachesTheFullBinaryIntact() throws {
        #expect(try runner.run(["git-credential", "get"], stdin: Self.request("contoso")).status == 0)
        let long = Self.request("contoso/expired/x.git") + String(repeating: "padding=0123456789abcdef\n", count: 8000)
        let r = try decoy.run(["git-credential", "get"], stdin: long)
        #expect(r.status == 7 && r.stdout == "handed over: git-credential get\n", "\(r.stdout) \(r.stderr)")
        #expect(try String(contentsOfFile: dir.file("decoy/stdin"), encoding: .utf8) == long)
        // And the real one answers from it: the expired token's renewal fails offline, said for the URL.
        let full = try runner.run(["git-credential", "get"], stdin: Self.request("contoso/expired/x.git"))
        #expect(full.status == 0 && full.stdout.isEmpty)
        #expect(full.stderr.contains("git-credential for https://dev.azure.com/contoso/expired/x.git"), "\(full.stderr)")
    }

    @Test func anEditedConfigGoesToTheFullBinaryUntilItIsReadAgain() throws {
        let get = ["git-credential", "get"]
        let answer = try expectSameAnswer(get, stdin: Self.request("contoso"))
        // The entry now routes to another account: the recorded routes are stale.
        let original = try String(contentsOfFile: configPath, encoding: .utf8)
        try original.replacingOccurrences(of: "account = \"work/0000a001\"\nscopes", with: "account = \"jiro\"\nscopes")
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        try expectHandedOver(get, stdin: Self.request("contoso"), "config changed since it was recorded")
        try expectHandedOver(["kube-credential", "work/0000a001"], "config changed since it was recorded")
        let jiro = try expectSameAnswer(get, stdin: Self.request("contoso"))
        #expect(jiro != answer && jiro.contains(fixture.secrets[2]))
    }

    /// No config file is a config too (no routes, the default margin), but one that
    /// `AUTHDECK_CONFIG` names must exist: authdeck-full says so, and the front hands over.
    @Test func aMissingConfigIsRecordedButAMissingNamedOneIsAnError() throws {
        try FileManager.default.removeItem(atPath: configPath)
        try expectSameAnswer(["kube-credential", "work/0000a001"])
        let named = try runner.run(["kube-credential", "work/0000a001"], env: ["AUTHDECK_CONFIG": configPath])
        #expect(named.status != 0 && named.stdout.isEmpty, "\(named.stdout)")
        try expectHandedOver(["kube-credential", "work/0000a001"], env: ["AUTHDECK_CONFIG": configPath], "a named config that is missing")
        try expectHandedOver(["token", "work/0000a001"], env: ["AUTHDECK_CONFIG": configPath], "a named config that is missing")
    }

    /// The record decides whose token git gets: one edited without the key (a route pointed at
    /// another account, a seal copied from another record) is handed over, never believed.
    @Test func aRouteRecordEditedWithoutTheKeyIsNotBelieved() throws {
        let get = ["git-credential", "get"]
        #expect(try runner.run(["token", "work/0000a001"]).status == 0, "the record, written by the token use case")
        try expectSameAnswer(get, stdin: Self.request("named"))
        let sqlite = BinaryRunner(executable: "/usr/bin/sqlite3", environment: [:])
        // The entry for /named pointed from jiro at taro's account, whose token is valid too.
        let edit = try sqlite.run([storePath, "UPDATE meta SET value = replace(CAST(value AS TEXT), '4:jiro', '13:work/0000a001') WHERE key = 'fast_front.v1'"])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try sqlite.run([storePath, "SELECT instr(CAST(value AS TEXT), '13:work/0000a001+') > 0 FROM meta WHERE key = 'fast_front.v1'"]).stdout == "1\n")
        try expectHandedOver(get, stdin: Self.request("named"), "an edited route")
        // A value sealed under the same key for another place is no seal for the record.
        #expect(try sqlite.run([storePath, """
            UPDATE meta SET value = (SELECT sealed_value FROM access_tokens LIMIT 1) WHERE key = 'fast_front.v1.seal'
            """]).status == 0)
        try expectHandedOver(get, stdin: Self.request("named"), "a seal from elsewhere")
        // authdeck-full writes a good record again.
        #expect(try runner.run(get, stdin: Self.request("named")).stdout.contains("username=builder\n"))
        #expect(try lone.run(get, stdin: Self.request("named")).stdout.contains("username=builder\n"))
        // A default account whose seal does not open is authdeck-full's to judge.
        try openStore().setDefaultAccount("work/0000a001", provider: "work")
        #expect(try lone.run(get, stdin: Self.request("default")).status == 0)
        #expect(try sqlite.run([storePath, "UPDATE provider_secrets SET sealed_value = x'00' WHERE name = 'default_account'"]).status == 0)
        try expectHandedOver(get, stdin: Self.request("default"), "a default that does not open")
    }
}
