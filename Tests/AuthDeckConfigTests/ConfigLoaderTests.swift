import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckTestSupport

/// config.toml: the fixture config loads, and each mistake gets a message naming the
/// provider, the key and the real problem.
@Suite struct ConfigLoaderTests {
    @Test func fixtureConfigLoads() throws {
        let config = try ConfigLoader.parse(DeckFixture.configTOML, path: "c.toml")
        #expect(config.providers.map(\.id) == ["work", "prod", "sp", "fb", "gl"])
        #expect(config.providers[0].scopes == ["openid", "offline_access", "User.Read"])
        #expect(config.providers[0].flow == .device)
        #expect(config.providers[1].expectedRealm == DeckFixture.prodTenant)
        #expect(config.providers[0].expectedRealm == nil)
        #expect(config.providers[4].endpoints["issuer"] == "http://127.0.0.1:4593/api/oidc")
        #expect(config.statePolicy == StatePolicy(expiringSoonWindow: .minutes(10), clockSkew: .seconds(60)))
        #expect(config.pruneSettings.unusedAfter == .days(90))
    }

    /// Attack 4: a NUL byte made toml++ drop everything after it — providers and `[hooks]`
    /// vanished with exit 0. It is refused wherever it is, with its line and column.
    @Test func aNULByteAnywhereInConfigTomlIsRefusedWithItsLineAndColumn() throws {
        let cases: [(String, String)] = [
            ("clock_skew = \"60s\"\n\0\n[[provider]]\nid = \"work\"\nkind = \"azuread\"\n", "line 2, column 1"),
            ("[[provider]]\nid = \"wo\0rk\"\nkind = \"azuread\"\n", "line 2, column 9"),
            ("# 日本\0\n[hooks]\non_renewed = \"true\"\n", "line 1, column 5"),
        ]
        for (toml, location) in cases {
            #expect(message(toml) == "/home/u/.config/authdeck/config.toml: \(location): a NUL byte; TOML text cannot hold one (remove it: everything after it would be lost)",
                    "\(toml.debugDescription)")
        }
    }

    func message(_ toml: String) -> String {
        do {
            _ = try ConfigLoader.parse(toml, path: "/home/u/.config/authdeck/config.toml")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ("[[provider]]\nid = \"work\"\nkind = \"azuread\"\nscopes = \"openid\"",
         "/home/u/.config/authdeck/config.toml: provider \"work\": \"scopes\" must be an array of strings (found a string)"),
        ("[[provider]]\nid = \"work\"\nkind = \"azuread\"\nscope = [\"openid\"]",
         "/home/u/.config/authdeck/config.toml: provider \"work\": unknown key \"scope\" (did you mean \"scopes\"?)"),
        ("[[provider]]\nid = \"work\"\nkind = \"azure\"",
         "/home/u/.config/authdeck/config.toml: provider \"work\": \"kind\" must be one of azuread, sharepoint, facebook, oam, oidc (found \"azure\")"),
        ("[[provider]]\nid = \"work\"\nkind = \"oidc\"\nclient_secret = \"x\"",
         "/home/u/.config/authdeck/config.toml: provider \"work\": \"client_secret\": secrets are never read from config.toml; use client_secret_file or client_secret_env"),
        ("[[provider]]\nkind = \"oidc\"",
         "/home/u/.config/authdeck/config.toml: provider #1: \"id\" is required"),
        ("[[provider]]\nid = \"a\"\nkind = \"oidc\"\n[[provider]]\nid = \"a\"\nkind = \"oidc\"",
         "/home/u/.config/authdeck/config.toml: provider \"a\": id is used by an earlier provider too"),
        ("[[provider]]\nid = \"a\"\nkind = \"oidc\"\nscopes = [\"openid\", 3]",
         "/home/u/.config/authdeck/config.toml: provider \"a\": \"scopes\" must be an array of strings (item 2 is an integer)"),
        ("[[provider]]\nid = \"a\"\nkind = \"oidc\"\nendpoints = { issuer = \"ftp://x\" }",
         "/home/u/.config/authdeck/config.toml: provider \"a\": \"endpoints.issuer\" must be an http(s) URL (found \"ftp://x\")"),
        ("[[provider]]\nid = \"a\"\nkind = \"oidc\"\nflow = \"magic\"",
         "/home/u/.config/authdeck/config.toml: provider \"a\": \"flow\" must be one of device, browser, password, client, import, assertion (found \"magic\")"),
        ("expiring_soon = \"soon\"",
         "/home/u/.config/authdeck/config.toml: \"expiring_soon\" must be a duration such as \"10m\", \"12h\" or \"90d\" (found \"soon\")"),
        ("[prune]\nunused = \"90d\"",
         "/home/u/.config/authdeck/config.toml: [prune]: unknown key \"unused\"; known keys: sign_in_grace, rejected_grace, unused_after"),
        ("provider = \"work\"",
         "/home/u/.config/authdeck/config.toml: \"provider\" must be an array of tables: write each one as [[provider]]"),
        ("thme = \"dark\"",
         "/home/u/.config/authdeck/config.toml: unknown key \"thme\"; known keys: expiring_soon, clock_skew, prune, provider, keys, hooks, credential, agent, agent_confirm"),
    ])
    func mistakesAreWorded(toml: String, expected: String) {
        #expect(message(toml) == expected)
    }

    @Test func syntaxErrorsCarryLineAndColumn() {
        let m = message("[[provider]]\nid = \"a\"\nkind = ")
        #expect(m.hasPrefix("/home/u/.config/authdeck/config.toml: line 3, column"))
    }

    /// Inputs on which toml++ aborts the process with an assertion (found by authdeck-fuzz):
    /// each must be an error with a line and column instead — and valid neighbours still load.
    @Test(arguments: [
        ("[日本]\n", "line 1, column 2: a table header needs a name"),
        ("[x]\n[[ }x]]\n", "line 2, column 4: a table header needs a name"),
        ("expiring_soon = \"10m\"\n[", "line 2, column 2: a table header needs a name"),
        ("[\nx]\n", "line 1, column 2: a table header needs a name"),
        ("a = [1, }2]\n", "line 1, column 9: \"}\" closes a \"[\" it does not match"),
        ("a = { b = [\n } ] }\n", "line 2, column 2: \"}\" closes a \"[\" it does not match"),
    ])
    func inputsTheTOMLParserWouldAbortOnAreErrors(toml: String, expected: String) {
        #expect(message(toml).hasPrefix("/home/u/.config/authdeck/config.toml: " + expected), "\(message(toml))")
    }

    @Test func bracketsInStringsCommentsAndNestedValuesAreNotHeaders() throws {
        let toml = """
            # [日本] in a comment
            expiring_soon = "10m" # ]}
            [prune]
            unused_after = "90d"
            [[provider]]
            id = "a"
            kind = "oidc"
            client_id = "c"
            scopes = [
              "openid", "}]",
            ]
            endpoints = { issuer = "https://idp.example/[}" }
            options = { note = \"\"\"
            [日本]
            \"\"\" }
            """
        // It parses (the old check passed on any other error), and the odd strings are values.
        let config = try ConfigLoader.parse(toml, path: "c.toml")
        #expect(config.providers.first?.scopes == ["openid", "}]"])
        #expect(config.providers.first?.endpoints["issuer"] == "https://idp.example/[}")
        #expect(config.providers.first?.options["note"] == "[日本]\n")
    }

    /// `[[credential]]` (issue 28): read, normalised, and every mistake named with the entry and key.
    @Test func credentialEntriesAreReadAndChecked() throws {
        let config = try ConfigLoader.parse("""
            [[credential]]
            url = "HTTPS://Dev.Azure.com/contoso/"
            account = "work"
            scopes = ["499b84ac-1321-427f-aa17-267ca6975798/.default"]
            username = "me"
            """, path: "c")
        #expect(config.credentials == [CredentialRoute(url: "https://dev.azure.com/contoso", account: "work",
                                                       scopes: ["499b84ac-1321-427f-aa17-267ca6975798/.default"], username: "me")])
        #expect(message("[[credential]]\nurl = \"https://x.example\"\naccount = \"w\"\npassword = \"p\"").contains("credential #1: \"password\": passwords and tokens are never read from config.toml"))
        #expect(message("[[credential]]\nurl = \"ftp://x.example\"\naccount = \"w\"").contains("credential #1: \"url\" must be scheme://host"))
        #expect(message("[[credential]]\nurl = \"https://x.example/?a=b\"\naccount = \"w\"").contains("no query"))
        #expect(message("[[credential]]\nurl = \"https://x.example\"").contains("credential #1") )
        #expect(message("[[credential]]\nurl = \"https://x.example\"\naccount = \"w\"\n[[credential]]\nurl = \"https://X.example/\"\naccount = \"v\"")
                .contains("has an earlier [[credential]] entry too"))
        // The longest entry covering a URL wins, on whole path segments.
        let routes = [CredentialRoute(url: "https://h.example/a", account: "one"), CredentialRoute(url: "https://h.example/a/b", account: "two")]
        #expect(CredentialRoute.route(for: "https://h.example/a/b/c.git", in: routes)?.account == "two")
        #expect(CredentialRoute.route(for: "https://h.example/a/bc", in: routes)?.account == "one")
        #expect(CredentialRoute.route(for: "https://h.example/ab", in: routes) == nil)
    }

    @Test func keyOverridesAreReadAndChecked() throws {
        let config = try ConfigLoader.parse("[keys]\nrenew = \"e\"\nquit = \"escape\"\n", path: "c")
        #expect(config.keys == ["renew": "e", "quit": "escape"])
        #expect(message("[keys]\nrenw = \"e\"") == "/home/u/.config/authdeck/config.toml: [keys]: unknown key \"renw\" (did you mean \"renew\"?)")
        #expect(message("[keys]\nrenew = \"ctrl-e\"").hasPrefix("/home/u/.config/authdeck/config.toml: [keys]: \"renew\" must be one character or enter"))
        // Another action's key would make that action unreachable, silently (quit = "p" quit on
        // p and left prune without a key; found by a new user's trial).
        #expect(message("[keys]\nquit = \"p\"") == "/home/u/.config/authdeck/config.toml: [keys]: \"quit\" = \"p\" is already the key of \"prune\" (prune stale accounts (preview, then y)); choose another key")
        #expect(message("[keys]\nquit = \"x\"\ntheme = \"x\"").contains("are both given \"x\"; give each action its own key"))
        #expect(try ConfigLoader.parse("[keys]\nrenew = \"r\"\nquit = \"x\"", path: "c").keys == ["renew": "r", "quit": "x"], "an action's own key, or a free one")
    }

    @Test func unusedAfterCanBeOff() throws {
        let config = try ConfigLoader.parse("[prune]\nunused_after = \"off\"", path: "c")
        #expect(config.pruneSettings.unusedAfter == nil)
    }

    @Test func renewBeforeAndHooksAreReadAndChecked() throws {
        let config = try ConfigLoader.parse("""
            [hooks]
            on_renewed = "notify-send renewed"
            on_expiring = "notify-send expiring"

            [[provider]]
            id = "work"
            kind = "azuread"
            renew_before = "90s"

            [[provider]]
            id = "fb"
            kind = "facebook"
            """, path: "c")
        #expect(config.hooks == DeckHooks(onRenewed: "notify-send renewed", onExpiring: "notify-send expiring"))
        #expect(config.providers[0].renewBefore == .seconds(90))
        #expect(config.providers[1].renewBefore == .minutes(5), "five minutes unless the provider says otherwise")
        #expect(message("[hooks]\non_renew = \"x\"") == "/home/u/.config/authdeck/config.toml: [hooks]: unknown key \"on_renew\" (did you mean \"on_renewed\"?)")
        #expect(message("[hooks]\non_renewed = [\"notify-send\"]").contains("\"on_renewed\" must be a string"))
        #expect(message("[[provider]]\nid = \"w\"\nkind = \"azuread\"\nrenew_before = \"soon\"")
                == "/home/u/.config/authdeck/config.toml: provider \"w\": \"renew_before\" must be a duration such as \"10m\", \"12h\" or \"90d\" (found \"soon\")")
    }

    @Test func missingFileIsDefaultUnlessExplicit() throws {
        let dir = TempDirectory()
        let implicit = try ConfigLoader.load(path: dir.file("none.toml"), required: false)
        #expect(!implicit.fileExists && implicit.providers.isEmpty && implicit.knownProviders == nil)
        #expect(throws: ConfigError(path: dir.file("none.toml"), location: nil,
                                    problem: "no such config file (named by --config or AUTHDECK_CONFIG): give an existing file, or neither to read the default config.toml")) {
            try ConfigLoader.load(path: dir.file("none.toml"), required: true)
        }
    }

    /// A directory given as the config (`AUTHDECK_CONFIG=/tmp`) is called one, whether the
    /// file was asked for or not — not "cannot read the file (permissions?)".
    @Test func aDirectoryIsNamedAsOne() throws {
        let dir = TempDirectory()
        for required in [true, false] {
            #expect(throws: ConfigError(path: dir.path, location: nil,
                                        problem: "a directory, not a config file: give the path of the file itself (config.toml)")) {
                try ConfigLoader.load(path: dir.path, required: required)
            }
        }
    }

    /// Issue 40: the address bar's URL is the site, normalised to its host when config loads
    /// (so cookies and origins are matched one way); what is not a site's root is refused by key.
    @Test func aSharePointSiteIsNormalisedOnceOrRefusedNamingTheKey() throws {
        func toml(_ site: String) -> String {
            "[[provider]]\nid = \"sp\"\nkind = \"sharepoint\"\noptions = { site = \"\(site)\", mode = \"legacy\" }\n"
        }
        for site in ["https://contoso.sharepoint.com", "https://Contoso.sharepoint.com/", "contoso.sharepoint.com"] {
            let config = try ConfigLoader.parse(toml(site), path: "c.toml")
            #expect(config.providers[0].options["site"] == "contoso.sharepoint.com", "\(site)")
            #expect(config.providers[0].site?.origin == "https://contoso.sharepoint.com")
        }
        for (site, why) in [("http://contoso.sharepoint.com", "found a http URL"),
                            ("https://contoso.sharepoint.com:444", "must not name a port"),
                            ("https://contoso.sharepoint.com/sites/team", "not a page or sub-site")] {
            let m = message(toml(site))
            #expect(m.hasPrefix("/home/u/.config/authdeck/config.toml: provider \"sp\": \"options.site\" "), "\(m)")
            #expect(m.contains(why), "\(m)")
        }
    }
}
