import AuthDeckCore

/// A `kind = "sharepoint"` profile's options, checked once.
///
/// `site` (host or https root URL, required; config normalises it to the host), `site_url` (default `https://<site>`; the emulator overrides
/// it), `azure_provider` (the Azure AD provider whose tokens buy cookies — the modern path),
/// `mode` (`modern`, default, or `legacy` SAML for managed accounts), `login_url` (legacy:
/// default `https://login.microsoftonline.com`), `remember_password` (`true`: legacy mode
/// keeps the password, sealed, so cookies can be renewed silently), `browser` (the sign-in
/// window's Chromium-family browser, for `flow = "browser"`; read by AuthDeckApp's `SignInBrowser`).
struct SharePointSettings: Sendable {
    let site: String
    let siteURL: String
    let azure: ProviderProfile?
    let legacy: Bool
    let loginURL: String
    let rememberPassword: Bool

    init(_ profile: ProviderProfile, providers: [ProviderProfile]) throws {
        func bad(_ problem: String) -> AuthFailure {
            AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\": \(problem)")
        }
        guard let site = profile.site else {
            throw bad("options.site must name the SharePoint host or its https address (e.g. contoso.sharepoint.com)")
        }
        self.site = site.host
        let url = profile.options["site_url"] ?? site.origin
        siteURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        legacy = (profile.options["mode"] ?? "modern") == "legacy"
        guard legacy || profile.options["mode"] == nil || profile.options["mode"] == "modern" else {
            throw bad("options.mode must be modern or legacy")
        }
        if let id = profile.options["azure_provider"] {
            guard let p = providers.first(where: { $0.id == id }), p.kind == .azuread else {
                throw bad("options.azure_provider \"\(id)\" is not an azuread provider in the config")
            }
            azure = p
        } else {
            azure = nil
        }
        guard legacy || azure != nil || profile.flow == .browser else {
            throw bad("set options.azure_provider (modern sign-in), options.mode = \"legacy\" or flow = \"browser\" (a sign-in in a browser window)")
        }
        let login = profile.options["login_url"] ?? "https://login.microsoftonline.com"
        loginURL = login.hasSuffix("/") ? String(login.dropLast()) : login
        rememberPassword = profile.options["remember_password"] == "true"
    }

    /// The Azure AD scope whose tokens SharePoint accepts.
    var resourceScope: String { "https://\(site)/.default" }
}
