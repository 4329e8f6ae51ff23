import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// The legacy SharePoint Online sign-in (managed, non-MFA accounts): realm lookup,
/// WS-Trust RST/Issue to extSTS.srf, and the compact token's exchange for FedAuth + rtFa.
struct SharePointSAML: Sendable {
    let settings: SharePointSettings
    let http: any HTTPClient
    /// Where a renewal's remembered password and the token it buys may go: the login and site
    /// origins of the sign-in that remembered it (nil for a sign-in, which records them).
    var home: GrantHome? = nil

    /// Checks that the account is managed (federated accounts authenticate at their own STS).
    func checkRealm(_ username: String) async throws {
        let response = try await send(HTTPRequest.form("\(settings.loginURL)/GetUserRealm.srf", [("login", username), ("xml", "1")]))
        let text = response.bodyText
        guard let type = SAMLTokenResponse.element("NameSpaceType", in: text) else {
            throw AuthFailure(.transient, code: "bad_response", remedy: "GetUserRealm.srf answered without a NameSpaceType; nothing was changed")
        }
        if type == "Federated" {
            throw AuthFailure(.misconfigured, code: "federated",
                              remedy: "\(username) is a federated account: the legacy SharePoint sign-in only works for managed accounts; use the modern mode (options.azure_provider)")
        }
        if type == "Unknown" {
            throw AuthFailure(.needsInteraction, code: "unknown_user", remedy: "Microsoft does not know \(username)")
        }
    }

    /// Requests a compact SAML token for the site; parses faults into remedies.
    /// The password rides in a SOAP body, which the HTTP gate cannot read: the request declares
    /// it, so it goes only to an https login URL (or one on loopback), never readable on the way.
    func requestToken(username: String, password: Secret) async throws -> String {
        let envelope = Self.envelope(to: "\(settings.loginURL)/extSTS.srf", username: username, password: password.exposedValue,
                                     appliesTo: "https://\(settings.site)/_forms/default.aspx?wa=wsignin1.0")
        var request = HTTPRequest(method: "POST", url: "\(settings.loginURL)/extSTS.srf",
                                  headers: [HTTPHeader("Content-Type", "application/soap+xml; charset=utf-8")], body: Array(envelope.utf8))
        request.timeout = 30
        request.passage = SecretPassage([.password], home: home)
        let response = try await send(request)
        return try SAMLTokenResponse.token(from: response.bodyText)
    }

    /// Exchanges the token for FedAuth and rtFa (from the 302's Set-Cookie headers): the
    /// jar lines libcurl kept, which never include a cookie set for another domain.
    func exchange(_ token: String) async throws -> [String] {
        var request = HTTPRequest(method: "POST", url: "\(settings.siteURL)/_forms/default.aspx?wa=wsignin1.0",
                                  headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")], body: Array(token.utf8))
        request.cookieJar = []
        // The SAML token is a bearer credential for the site, in a body the gate cannot read.
        request.passage = SecretPassage([.accessToken], home: home)
        let response = try await send(request)
        guard (200..<400).contains(response.status) else {
            throw AuthFailure(response.status >= 500 ? .transient : .misconfigured, code: "http \(response.status)",
                              remedy: "\(settings.site) did not accept the sign-in token (HTTP \(response.status))")
        }
        return response.cookieJar ?? []
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await TokenEndpoint.send(request, via: http)
        // extSTS.srf answers a SOAP fault with HTTP 500: that one is read as a fault.
        if response.status == 429 || response.status > 500 {
            throw AuthFailure(.transient, code: "http \(response.status)", remedy: "\(URL(string: request.url)?.host ?? "the server") is unavailable (HTTP \(response.status)); nothing was changed")
        }
        return response
    }

    static func envelope(to: String, username: String, password: String, appliesTo: String) -> String {
        func x(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        return """
            <?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" \
            xmlns:a="http://www.w3.org/2005/08/addressing" xmlns:u="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">\
            <s:Header><a:Action s:mustUnderstand="1">http://schemas.xmlsoap.org/ws/2005/02/trust/RST/Issue</a:Action>\
            <a:ReplyTo><a:Address>http://www.w3.org/2005/08/addressing/anonymous</a:Address></a:ReplyTo>\
            <a:To s:mustUnderstand="1">\(x(to))</a:To>\
            <o:Security s:mustUnderstand="1" xmlns:o="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">\
            <o:UsernameToken><o:Username>\(x(username))</o:Username><o:Password>\(x(password))</o:Password></o:UsernameToken></o:Security></s:Header>\
            <s:Body><t:RequestSecurityToken xmlns:t="http://schemas.xmlsoap.org/ws/2005/02/trust">\
            <wsp:AppliesTo xmlns:wsp="http://schemas.xmlsoap.org/ws/2004/09/policy"><a:EndpointReference><a:Address>\(x(appliesTo))</a:Address>\
            </a:EndpointReference></wsp:AppliesTo><t:KeyType>http://schemas.xmlsoap.org/ws/2005/05/identity/NoProofKey</t:KeyType>\
            <t:RequestType>http://schemas.xmlsoap.org/ws/2005/02/trust/Issue</t:RequestType>\
            <t:TokenType>urn:oasis:names:tc:SAML:1.0:assertion</t:TokenType></t:RequestSecurityToken></s:Body></s:Envelope>
            """
    }
}
