import Testing
import AuthDeckCore

/// The OAM configuration URL: the SDK guide's example, and every malformed shape named.
@Suite struct OAMConfigURLTests {
    static let example = "wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=https://host123.us.example.com:14100&OAMMSServiceDomain::=MobileServiceDomain&ApplicationName::=WhitePages"

    @Test func theGuidesExampleParses() throws {
        let c = try OAMConfigURL.parse(Self.example)
        #expect(c.settings == ["AuthServerType": "OAMMSAuthentication", "OAMMSURL": "https://host123.us.example.com:14100",
                               "OAMMSServiceDomain": "MobileServiceDomain", "ApplicationName": "WhitePages"])
        #expect(c.ignored.isEmpty)
        #expect(c.suggestedID == "whitepages")
        let p = c.profile(id: "wp")
        #expect(p.kind == .oam && p.endpoints["base"] == "https://host123.us.example.com:14100")
        // The Mobile and Social REST server type, not the OAuth service's paths (issue 41).
        #expect(p.options["service_domain"] == "MobileServiceDomain" && p.options["server_type"] == "mobile-social" && p.options["preset"] == nil)
    }

    @Test func unknownKeysAreIgnoredAndListedAndValuesArePercentDecoded() throws {
        let c = try OAMConfigURL.parse(Self.example + "&Color::=blue&MaxLoginAttempts::=3&OAuthScope::=a%20b&Zeta::=1")
        #expect(c.ignored == ["Color", "Zeta"])
        #expect(c.settings["MaxLoginAttempts"] == "3" && c.settings["OAuthScope"] == "a b")
    }

    @Test(arguments: [
        ("settings?AuthServerType::=OAuth2.0", "not a configuration URL: expected <scheme>://<host>?Key::=Value&…"),
        ("wp://settings", "no settings: expected ?Key::=Value after the host"),
        ("wp://settings?", "no settings after \"?\""),
        ("wp://settings?AuthServerType=OAMMSAuthentication", "setting 1 \"AuthServerType=OAMMSAuthentication\" has no \"::=\" between key and value"),
        ("wp://settings?AuthServerType::=OAMMSAuthentication&&OAMMSURL::=https://h", "setting 2 is empty (two '&' in a row?)"),
        ("wp://settings?::=x", "setting 1 has an empty key"),
        ("wp://settings?AuthServerType::=OAMMSAuthentication&AuthServerType::=OAuth2.0", "setting 2: AuthServerType is given twice"),
        ("wp://settings?AuthServerType::=SAML", "setting 1 (AuthServerType): must be OAMMSAuthentication or OAuth2.0 (found \"SAML\")"),
        ("wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=ftp://host", "setting 2 (OAMMSURL): must be an http(s) URL (found \"ftp://host\")"),
        ("wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=https://", "setting 2 (OAMMSURL): has no valid host (found \"https://\")"),
        ("wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=https://h:99999", "setting 2 (OAMMSURL): has a bad port (found \"https://h:99999\")"),
        ("wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=http%3A%2F%2Fh%ZZ", "setting 2 (OAMMSURL): bad percent-encoding in the value"),
        ("wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=https://h&OfflineAuthAllowed::=yes", "setting 3 (OfflineAuthAllowed): must be true or false (found \"yes\")"),
        ("wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=https://h&MaxLoginAttempts::=0", "setting 3 (MaxLoginAttempts): must be a whole number of at least 1 (found \"0\")"),
        ("wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=https://h&CryptoScheme::=ROT13", "setting 3 (CryptoScheme): is not a known CryptoScheme (found \"ROT13\")"),
        ("wp://settings?OAMMSURL::=https://h", "AuthServerType is missing (OAMMSAuthentication or OAuth2.0)"),
        ("wp://settings?AuthServerType::=OAMMSAuthentication", "OAMMSURL is required when AuthServerType is OAMMSAuthentication"),
        ("wp://settings?AuthServerType::=OAuth2.0&OAuthClientSecret::=s3cret", "setting 2 (OAuthClientSecret): secrets are not taken from a configuration URL; use client_secret_file or client_secret_env"),
        ("w p://settings?AuthServerType::=OAuth2.0", "the scheme \"w p\" is not a URL scheme"),
    ])
    func malformedURLsAreNamed(url: String, message: String) {
        do {
            _ = try OAMConfigURL.parse(url)
            Issue.record("accepted \(url)")
        } catch let e as OAMConfigURL.ParseError {
            #expect(e.description == message)
        } catch {
            Issue.record("\(error)")
        }
    }
}

/// The SDK's remember options: what is allowed, and the priority of the defaults.
@Suite struct OAMCredentialOptionsTests {
    @Test func defaultsFollowThePriorityAutoLoginThenCredentialsThenUsername() {
        var o: [String: String] = ["auto_login_allowed": "true", "remember_credentials_allowed": "true", "remember_username_allowed": "true",
                                   "auto_login_default": "true", "remember_credentials_default": "true", "remember_username_default": "true"]
        #expect(OAMCredentialOptions(o).remembrance(requested: nil) == .autoLogin)
        o["auto_login_default"] = "false"
        #expect(OAMCredentialOptions(o).remembrance(requested: nil) == .credentials)
        o["remember_credentials_allowed"] = "false"
        #expect(OAMCredentialOptions(o).remembrance(requested: nil) == .username)
        o["remember_username_default"] = "false"
        #expect(OAMCredentialOptions(o).remembrance(requested: nil) == OAMCredentialOptions.Remembrance.none)
    }

    @Test func anExplicitChoiceMustBeAllowed() {
        let o = OAMCredentialOptions(["remember_username_allowed": "true", "max_login_attempts": "3"])
        #expect(o.remembrance(requested: .username) == .username)
        #expect(o.remembrance(requested: .credentials) == nil)
        #expect(o.remembrance(requested: OAMCredentialOptions.Remembrance.none) == OAMCredentialOptions.Remembrance.none)
        #expect(o.maxLoginAttempts == 3 && !o.offlineAuthAllowed)
        #expect(OAMCredentialOptions([:]).maxLoginAttempts == 1)
    }

    /// Issue 26: `http://` endpoints (a cloud metadata address among them) were accepted, and a
    /// password sign-in then sent the password in clear. https only; http only on loopback.
    @Test func plainHttpIsRefusedExceptOnLoopback() throws {
        for host in ["host123.us.example.com:14100", "169.254.169.254"] {
            do {
                _ = try OAMConfigURL.parse("wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=http://\(host)")
                Issue.record("accepted http://\(host)")
            } catch let e as OAMConfigURL.ParseError {
                #expect(e.description.contains("setting 2 (OAMMSURL): must be an https URL"), "\(e)")
            }
        }
        let local = try OAMConfigURL.parse("wp://settings?AuthServerType::=OAuth2.0&OAuthTokenEndpoint::=http://127.0.0.1:9000/token")
        #expect(local.settings["OAuthTokenEndpoint"] == "http://127.0.0.1:9000/token", "the emulator on loopback is fine")
    }

    /// Issue 26: a look-alike (homoglyph) host was shown only as Unicode. Its ASCII form is
    /// now shown beside it.
    @Test func anInternationalisedHostIsShownInPunycodeToo() throws {
        let c = try OAMConfigURL.parse("wp://settings?AuthServerType::=OAuth2.0&OAuthTokenEndpoint::=https://login.pаypal.example/token"
                                       + "&OAuthAuthZEndpoint::=https://login.example.com/authorize")
        #expect(c.internationalHosts == ["OAuthTokenEndpoint: the host login.pаypal.example is login.xn--pypal-4ve.example in ASCII (punycode); "
                                          + "an internationalised name can imitate another, so check it is the host you expect"])
    }
}
