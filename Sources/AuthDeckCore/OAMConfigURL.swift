/// The OAM mobile SDK's configuration URL:
/// `<scheme>://<host>?<Key1>::=<Value1>&<Key2>::=<Value2>…`, turned into a provider profile.
///
/// Only allow-listed keys are taken (others are listed as ignored, as the SDK does); every
/// malformed part — a missing `::=`, an empty or duplicate key, bad percent-encoding, a bad
/// URL, an unknown server type, a non-boolean flag — is an error that names the part.
public struct OAMConfigURL: Equatable, Sendable {
    public var settings: [String: String]
    public var ignored: [String]

    /// Keys the SDK documents (PROVIDERS.md §5), with how each value is checked.
    static let allowed: [String: Kind] = [
        "AuthServerType": .serverType, "OAMMSURL": .url, "OAMMSServiceDomain": .text, "ApplicationName": .text,
        "OfflineAuthAllowed": .bool, "MaxLoginAttempts": .positive, "AutoLoginAllowed": .bool,
        "RememberCredentialsAllowed": .bool, "RememberUsernameAllowed": .bool, "AutoLoginDefault": .bool,
        "RememberCredentialDefault": .bool, "RememberUsernameDefault": .bool, "CryptoScheme": .crypto,
        "OAuthAuthZGrantType": .text, "OAuthAuthZEndpoint": .url, "OAuthTokenEndpoint": .url,
        "OAuthRedirectEndpoint": .text, "OAuthClientID": .text, "OAuthClientSecret": .forbidden, "OAuthScope": .text,
        "BrowserMode": .browserMode, "OAMOAuthServiceEndpoint": .url, "IdentityDomain": .text,
    ]

    enum Kind { case text, url, bool, positive, serverType, crypto, browserMode, forbidden }

    static func isSchemeCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "+" || c == "-" || c == "."
    }

    static func isHostCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "-" || c == "."
    }

    static let cryptoSchemes: Set<String> = ["PlainText", "AES", "SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512",
                                             "SaltedSHA-1", "SaltedSHA-224", "SaltedSHA-256", "SaltedSHA-384", "SaltedSHA-512"]

    /// A problem in the URL, naming the part.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }

    public static func parse(_ text: String) throws -> OAMConfigURL {
        let trimmed = text.trimmingWhitespace()
        guard let schemeEnd = trimmed.firstRange(of: "://") else {
            throw ParseError("not a configuration URL: expected <scheme>://<host>?Key::=Value&…")
        }
        let scheme = trimmed[..<schemeEnd.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy(Self.isSchemeCharacter) else {
            throw ParseError("the scheme \"\(TerminalText.inert(String(scheme)))\" is not a URL scheme")
        }
        guard let q = trimmed.firstIndex(of: "?") else { throw ParseError("no settings: expected ?Key::=Value after the host") }
        let query = trimmed[trimmed.index(after: q)...]
        guard !query.isEmpty else { throw ParseError("no settings after \"?\"") }
        var settings: [String: String] = [:]
        var ignored: [String] = []
        for (index, part) in query.split(separator: "&", omittingEmptySubsequences: false).enumerated() {
            let n = index + 1
            guard !part.isEmpty else { throw ParseError("setting \(n) is empty (two '&' in a row?)") }
            guard let sep = part.firstRange(of: "::=") else {
                throw ParseError("setting \(n) \"\(TerminalText.inert(String(part.prefix(60))))\" has no \"::=\" between key and value")
            }
            let key = String(part[..<sep.lowerBound])
            guard !key.isEmpty else { throw ParseError("setting \(n) has an empty key") }
            guard let value = percentDecode(String(part[sep.upperBound...])) else {
                throw ParseError("setting \(n) (\(TerminalText.inert(key))): bad percent-encoding in the value")
            }
            guard let kind = allowed[key] else {
                ignored.append(key)
                continue
            }
            guard settings[key] == nil else { throw ParseError("setting \(n): \(key) is given twice") }
            try check(key, value, kind, n)
            settings[key] = value
        }
        guard let type = settings["AuthServerType"] else { throw ParseError("AuthServerType is missing (OAMMSAuthentication or OAuth2.0)") }
        if type == "OAMMSAuthentication", settings["OAMMSURL"] == nil { throw ParseError("OAMMSURL is required when AuthServerType is OAMMSAuthentication") }
        if type == "OAuth2.0", settings["OAuthTokenEndpoint"] == nil, settings["OAMOAuthServiceEndpoint"] == nil {
            throw ParseError("OAuthTokenEndpoint (or OAMOAuthServiceEndpoint) is required when AuthServerType is OAuth2.0")
        }
        return OAMConfigURL(settings: settings, ignored: ignored.sorted())
    }

    static func check(_ key: String, _ value: String, _ kind: Kind, _ n: Int) throws {
        func bad(_ what: String) -> ParseError { ParseError("setting \(n) (\(key)): \(what) (found \"\(TerminalText.inert(String(value.prefix(80))))\")") }
        switch kind {
        case .text: if value.isEmpty { throw bad("must not be empty") }
        case .bool: if value != "true" && value != "false" { throw bad("must be true or false") }
        case .positive: if Int(value).map({ $0 < 1 }) ?? true { throw bad("must be a whole number of at least 1") }
        case .serverType: if value != "OAMMSAuthentication" && value != "OAuth2.0" { throw bad("must be OAMMSAuthentication or OAuth2.0") }
        case .crypto: if !cryptoSchemes.contains(value) { throw bad("is not a known CryptoScheme") }
        case .browserMode: if value != "Embedded" && value != "External" { throw bad("must be Embedded or External") }
        case .forbidden: throw ParseError("setting \(n) (\(key)): secrets are not taken from a configuration URL; use client_secret_file or client_secret_env")
        case .url:
            let lower = value.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { throw bad("must be an http(s) URL") }
            let rest = value.drop { $0 != "/" }.dropFirst(2)
            let host = rest.prefix { $0 != "/" && $0 != ":" && $0 != "?" }
            guard !host.isEmpty, host.allSatisfy(isHostCharacter) else { throw bad("has no valid host") }
            let afterHost = rest.dropFirst(host.count)
            if afterHost.hasPrefix(":") {
                let port = afterHost.dropFirst().prefix { $0 != "/" }
                guard let p = Int(port), (1...65535).contains(p) else { throw bad("has a bad port") }
            }
            // A password or token sent there would cross the network readable (or to a cloud
            // metadata address such as 169.254.169.254): https only, http on loopback.
            if lower.hasPrefix("http://"), !TransportSecurity.isLoopback(host: String(host)) {
                throw bad("must be an https URL (plain http only to this machine: a password sent there could be read on the way)")
            }
        }
    }

    static func percentDecode(_ s: String) -> String? {
        var bytes: [UInt8] = []
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(v)
                it = it.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// One line per URL setting whose host is not plain ASCII, naming the host as written and
    /// in its ASCII (`xn--`) form. Why: an internationalised name can pass for another
    /// (`pаypal` with a Cyrillic `а`); its ASCII form shows which letters it has.
    public var internationalHosts: [String] {
        settings.keys.sorted().compactMap { key -> String? in
            guard Self.allowed[key] == .url, let value = settings[key],
                  let (_, host) = TransportSecurity.schemeAndHost(value), !host.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
            let ascii = Punycode.asciiHost(host) ?? "(cannot be written in ASCII)"
            return "\(key): the host \(TerminalText.inert(host)) is \(ascii) in ASCII (punycode); an internationalised name can imitate another, so check it is the host you expect"
        }
    }

    /// The provider this configuration describes, with the SDK settings as options.
    public func profile(id: String) -> ProviderProfile {
        let s = settings
        var options: [String: String] = [:]
        let map = ["OAMMSServiceDomain": "service_domain", "ApplicationName": "application_name", "OfflineAuthAllowed": "offline_auth_allowed",
                   "MaxLoginAttempts": "max_login_attempts", "AutoLoginAllowed": "auto_login_allowed",
                   "RememberCredentialsAllowed": "remember_credentials_allowed", "RememberUsernameAllowed": "remember_username_allowed",
                   "AutoLoginDefault": "auto_login_default", "RememberCredentialDefault": "remember_credentials_default",
                   "RememberUsernameDefault": "remember_username_default", "CryptoScheme": "crypto_scheme",
                   "BrowserMode": "browser_mode", "IdentityDomain": "identity_domain", "OAuthRedirectEndpoint": "redirect_uri"]
        for (key, option) in map { if let v = s[key] { options[option] = v } }
        options["server_type"] = s["AuthServerType"] == "OAuth2.0" ? "oauth2" : "mobile-social"
        var endpoints: [String: String] = [:]
        if let v = s["OAMMSURL"] { endpoints["base"] = v }
        if let v = s["OAuthTokenEndpoint"] { endpoints["token"] = v }
        if let v = s["OAuthAuthZEndpoint"] { endpoints["authorization"] = v }
        if let v = s["OAMOAuthServiceEndpoint"] { endpoints["base"] = endpoints["base"] ?? v }
        // OAMMSAuthentication is the Mobile and Social REST server type (no preset: a preset means
        // the OAuth service's paths); OAuth2.0 defaults to the 12c REST paths.
        if s["AuthServerType"] == "OAuth2.0" { options["preset"] = "12c" }
        return ProviderProfile(id: id, kind: .oam, clientId: s["OAuthClientID"],
                               scopes: s["OAuthScope"].map { $0.split(separator: " ").map(String.init) } ?? [],
                               flow: s["OAuthAuthZGrantType"].flatMap { $0.lowercased().contains("password") ? .password : nil },
                               endpoints: endpoints, options: options)
    }

    /// A provider id from ApplicationName: lowercase letters, digits and dashes.
    public var suggestedID: String {
        let name = (settings["ApplicationName"] ?? "oam").lowercased()
        let kept: [Character] = name.map { c in (c.isASCII && (c.isLetter || c.isNumber)) ? c : "-" }
        let slug = String(kept).split(separator: "-").joined(separator: "-")
        return slug.isEmpty ? "oam" : String(slug.prefix(40))
    }
}
