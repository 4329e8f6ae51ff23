import Foundation

/// SharePoint Online and its legacy login endpoints (PROVIDERS.md §3), for one site served at
/// the emulator's root (`siteHost` names it, e.g. `contoso.sharepoint.com`).
struct SharePointRoutes: Sendable {
    let state: EmulatorState
    let base: String
    let siteHost: String

    func handle(_ r: EmulatorRequest) async -> EmulatorResponse? {
        switch (r.method, r.path) {
        case ("POST", "/GetUserRealm.srf"): return await userRealm(r.form)
        case ("POST", "/extSTS.srf"): return await extSTS(String(decoding: r.body, as: UTF8.self))
        case ("POST", "/_forms/default.aspx"): return await formsSignIn(String(decoding: r.body, as: UTF8.self))
        case ("GET", "/"): return await home(r)
        case ("GET", "/_layouts/15/authenticate.aspx"): return signInPage(source: r.query["Source"], error: nil)
        case ("POST", "/_layouts/15/authenticate.aspx"): return await webSignIn(r)
        case ("POST", "/_api/SP.OAuth.NativeClient/Authenticate"): return await nativeClient(r)
        case ("POST", "/_api/contextinfo"), ("GET", "/_api/contextinfo"): return await contextInfo(r)
        case ("GET", "/_api/web"): return await web(r)
        default: return nil
        }
    }

    func userRealm(_ f: [String: String]) async -> EmulatorResponse {
        let user = await state.directory.user(f["login"] ?? "")
        let federated = user?.federated ?? false
        let type = user == nil ? "Unknown" : (federated ? "Federated" : "Managed")
        return .xml(200, """
            <?xml version="1.0" ?><RealmInfo Success="true"><State>4</State><UserState>1</UserState>\
            <Login>\(htmlEscape(f["login"] ?? ""))</Login><NameSpaceType>\(type)</NameSpaceType>\
            <DomainName>\(htmlEscape(String((f["login"] ?? "").split(separator: "@").last ?? "")))</DomainName>\
            \(federated ? "<STSAuthURL>https://sts.contoso.com/adfs/services/trust/2005/usernamemixed</STSAuthURL>" : "")</RealmInfo>
            """)
    }

    /// The SOAP RST/Issue: a compact token for good managed credentials, a fault for bad
    /// ones, and a token-less answer when legacy authentication is blocked.
    func extSTS(_ soap: String) async -> EmulatorResponse {
        let username = Self.element("Username", in: soap) ?? ""
        let password = Self.element("Password", in: soap) ?? ""
        let now = await state.now
        guard let user = await state.directory.user(username), user.password == password else {
            return .xml(500, """
                <?xml version="1.0" encoding="utf-8"?><S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope" \
                xmlns:wst="http://schemas.xmlsoap.org/ws/2005/02/trust" xmlns:psf="http://schemas.microsoft.com/Passport/SoapServices/SOAPFault">\
                <S:Body><S:Fault><S:Code><S:Value>S:Sender</S:Value><S:Subcode><S:Value>wst:FailedAuthentication</S:Value></S:Subcode></S:Code>\
                <S:Reason><S:Text xml:lang="en-US">Authentication Failure</S:Text></S:Reason><S:Detail><psf:error><psf:value>0x80048821</psf:value>\
                <psf:internalerror><psf:code>0x80041012</psf:code><psf:text>AADSTS50126: Error validating credentials due to invalid username or password.</psf:text>\
                </psf:internalerror></psf:error></S:Detail></S:Fault></S:Body></S:Envelope>
                """, soap: true)
        }
        if await state.legacyAuthBlocked || (user.federated ?? false) {
            return .xml(200, """
                <?xml version="1.0" encoding="utf-8"?><S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope" \
                xmlns:psf="http://schemas.microsoft.com/Passport/SoapServices/SOAPFault"><S:Header><psf:pp><psf:reqstatus>0x8004882c</psf:reqstatus>\
                </psf:pp></S:Header><S:Body><wst:RequestSecurityTokenResponse xmlns:wst="http://schemas.xmlsoap.org/ws/2005/02/trust">\
                </wst:RequestSecurityTokenResponse></S:Body></S:Envelope>
                """, soap: true)
        }
        let token = "t=" + TokenMinter.opaque("saml") + "&p="
        await state.rememberSAML(token, user: user.username)
        let f = ISO8601DateFormatter()
        return .xml(200, """
            <?xml version="1.0" encoding="utf-8"?><S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope" \
            xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" \
            xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd" \
            xmlns:wst="http://schemas.xmlsoap.org/ws/2005/02/trust"><S:Body><wst:RequestSecurityTokenResponse>\
            <wst:TokenType>urn:passport:compact</wst:TokenType><wsp:AppliesTo xmlns:wsp="http://schemas.xmlsoap.org/ws/2004/09/policy">\
            <wsa:EndpointReference xmlns:wsa="http://www.w3.org/2005/08/addressing"><wsa:Address>\(siteHost)</wsa:Address></wsa:EndpointReference></wsp:AppliesTo>\
            <wst:Lifetime><wsu:Created>\(f.string(from: now))</wsu:Created><wsu:Expires>\(f.string(from: now.addingTimeInterval(86_400)))</wsu:Expires></wst:Lifetime>\
            <wst:RequestedSecurityToken><wsse:BinarySecurityToken Id="Compact0">\(htmlEscape(token))</wsse:BinarySecurityToken></wst:RequestedSecurityToken>\
            </wst:RequestSecurityTokenResponse></S:Body></S:Envelope>
            """, soap: true)
    }

    func formsSignIn(_ body: String) async -> EmulatorResponse {
        guard let user = await state.takeSAML(body.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return .html(403, "<h1>403 FORBIDDEN</h1>")
        }
        return .redirect("/", headers: await cookieHeaders(user: user, names: ["FedAuth", "rtFa"]))
    }

    /// The site's sign-in web page, as a person meets it in a browser: a form for the user
    /// name and password that comes back with the error when they are wrong.
    func signInPage(source: String?, error: String?) -> EmulatorResponse {
        .html(200, """
            <h1>Sign in to \(htmlEscape(siteHost))</h1>\(error.map { "<p id=error role=alert>\(htmlEscape($0))</p>" } ?? "")
            <form method=post action="/_layouts/15/authenticate.aspx">
            <input type=hidden name=Source value="\(htmlEscape(Self.localPath(source)))">
            <label>Email <input id=username name=username type=email autocomplete=username></label>
            <label>Password <input id=password name=password type=password autocomplete=current-password></label>
            <button id=signin type=submit>Sign in</button></form>
            """)
    }

    /// The form's answer: on good credentials, the cookies SharePoint Online ends a browser
    /// sign-in with — FedAuth for this host only, rtFa for the whole `.sharepoint.com` when the
    /// page was reached by a SharePoint name (a browser refuses that domain on 127.0.0.1), both
    /// Secure and HttpOnly — and a redirect to the page the person came for.
    func webSignIn(_ r: EmulatorRequest) async -> EmulatorResponse {
        let f = r.form
        guard let user = await state.directory.user(f["username"] ?? ""), user.password == f["password"] else {
            return signInPage(source: f["Source"], error: "We couldn't sign you in: the user name or password is wrong.")
        }
        // Behind a TLS front (the tests' tls-proxy) the name the browser called is forwarded.
        let host = (r.headers["x-forwarded-host"] ?? r.headers["host"] ?? "").split(separator: ":").first.map { $0.lowercased() } ?? ""
        let tenantWide = host.hasSuffix(".sharepoint.com") ? ".sharepoint.com" : nil
        return .redirect(Self.localPath(f["Source"]), headers: await cookieHeaders(user: user.username, names: ["FedAuth"])
                         + (await cookieHeaders(user: user.username, names: ["rtFa"], domain: tenantWide)))
    }

    /// The site's home page: for a visitor without the site's cookies, a redirect to the sign-in
    /// page (as SharePoint Online sends a browser to its sign-in), which brings them back here.
    func home(_ r: EmulatorRequest) async -> EmulatorResponse {
        guard let user = await signedInUser(r) else {
            return .redirect("/_layouts/15/authenticate.aspx?Source=%2F")
        }
        return .html(200, "<h1>Intranet</h1><p id=user>Signed in as \(htmlEscape(user))</p>")
    }

    /// A path on this site to return to after sign-in; anything else (another origin,
    /// `//host`) becomes `/`, so the page is no open redirect.
    static func localPath(_ source: String?) -> String {
        guard let source, source.hasPrefix("/"), !source.hasPrefix("//"), !source.contains("\\") else { return "/" }
        return source
    }

    func cookieHeaders(user: String, names: [String], domain: String? = nil) async -> [(String, String)] {
        var out: [(String, String)] = []
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for name in names {
            let (value, expires) = await state.issueCookie(user: user, name: name)
            // Emulator-clock expiry, so advancing the clock expires cookies for clients too.
            let scope = domain.map { "; domain=\($0)" } ?? ""
            out.append(("Set-Cookie", "\(name)=\(value); expires=\(f.string(from: expires))\(scope); path=/; secure; HttpOnly"))
        }
        return out
    }

    /// Modern path: a bearer token for `https://{siteHost}` buys an SPOIDCRL cookie.
    func nativeClient(_ r: EmulatorRequest) async -> EmulatorResponse {
        guard let token = r.bearer, let grant = await state.accessGrant(token), grant.audience == "https://\(siteHost)",
              let user = grant.user else {
            return unauthorized()
        }
        return EmulatorResponse(status: 200, headers: [("Content-Type", "application/json;odata=verbose;charset=utf-8")]
                                + (await cookieHeaders(user: user, names: ["SPOIDCRL"])), body: Data("{}".utf8))
    }

    func unauthorized() -> EmulatorResponse {
        EmulatorResponse(status: 401, headers: [
            ("WWW-Authenticate", "Bearer realm=\"\(EmulatorDirectory.contoso)\",client_id=\"00000003-0000-0ff1-ce00-000000000000\",trusted_issuers=\"00000001-0000-0000-c000-000000000000@*\""),
            ("Content-Type", "application/json"),
        ], body: Data(#"{"error_description":"Invalid JWT token. No certificate thumbprint specified in token header."}"#.utf8))
    }

    /// Who the request is signed in as: SharePoint cookies or a bearer token for the site.
    func signedInUser(_ r: EmulatorRequest) async -> String? {
        let c = r.cookies
        if let fed = c["FedAuth"], let rt = c["rtFa"], let user = await state.cookieValid(fed, name: "FedAuth"),
           await state.cookieValid(rt, name: "rtFa") == user { return user }
        if let oidc = c["SPOIDCRL"], let user = await state.cookieValid(oidc, name: "SPOIDCRL") { return user }
        if let token = r.bearer, let g = await state.accessGrant(token), g.audience == "https://\(siteHost)" { return g.user }
        return nil
    }

    func contextInfo(_ r: EmulatorRequest) async -> EmulatorResponse {
        guard await signedInUser(r) != nil else {
            if r.bearer != nil { return unauthorized() }
            return EmulatorResponse(status: 403, headers: [
                ("X-FORMS_BASED_AUTH_REQUIRED", "\(base)/_forms/default.aspx?ReturnUrl=/_layouts/15/error.aspx&Source=%2f_vti_bin%2fclient.svc%2fProcessQuery"),
                ("X-FORMS_BASED_AUTH_RETURN_URL", "\(base)/_layouts/15/error.aspx"),
                ("Content-Type", "text/plain"),
            ], body: Data("403 FORBIDDEN".utf8))
        }
        return .json(200, ["d": ["GetContextWebInformation": [
            "__metadata": ["type": "SP.ContextWebInformation"],
            "FormDigestTimeoutSeconds": 1800,
            "FormDigestValue": "0x" + String(repeating: "AB", count: 16) + ",\(Int(Date().timeIntervalSince1970))",
            "LibraryVersion": "16.0.24601.12005", "SiteFullUrl": "https://\(siteHost)", "WebFullUrl": "https://\(siteHost)",
        ]]])
    }

    func web(_ r: EmulatorRequest) async -> EmulatorResponse {
        guard let user = await signedInUser(r) else { return await contextInfo(r) }
        return .json(200, ["d": ["Title": "Intranet", "Url": "https://\(siteHost)", "CurrentUser": user]])
    }

    /// The text of the first `<prefix:name>` element, entity-decoded.
    static func element(_ name: String, in xml: String) -> String? {
        guard let open = xml.range(of: ":\(name)>") ?? xml.range(of: "<\(name)>"),
              let close = xml.range(of: "</", range: open.upperBound..<xml.endIndex) else { return nil }
        return String(xml[open.upperBound..<close.lowerBound]).replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
