import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// Finds a provider's endpoints and signing keys: discovery (cached a day in the store),
/// with explicit `endpoints.*` from the config taking precedence.
struct MetadataResolver: Sendable {
    let context: AdapterContext
    static let maxAge = TimeSpan.hours(24)

    /// The endpoints for `profile`: discovered from `endpoints.issuer` when set, then
    /// overridden field by field by explicit endpoints.
    /// `timeout` (seconds) bounds a discovery fetch for a caller that must answer soon.
    func metadata(for profile: ProviderProfile, timeout: Double? = nil) async throws -> ProviderMetadata {
        let e = profile.endpoints
        var meta: ProviderMetadata
        if let issuer = e["issuer"] {
            meta = try await discover(issuer, timeout: timeout)
        } else {
            guard let token = e["token"] else {
                throw AuthFailure(.misconfigured, code: "no_endpoints",
                                  remedy: "provider \"\(profile.id)\": set endpoints.issuer (or at least endpoints.token)")
            }
            meta = ProviderMetadata(issuer: "", authorizationEndpoint: nil, tokenEndpoint: token)
        }
        if let v = e["authorization"] { meta.authorizationEndpoint = v }
        if let v = e["token"] { meta.tokenEndpoint = v }
        if let v = e["device"] { meta.deviceAuthorizationEndpoint = v }
        if let v = e["revocation"] { meta.revocationEndpoint = v }
        if let v = e["userinfo"] { meta.userinfoEndpoint = v }
        if let v = e["jwks"] { meta.jwksURI = v }
        if let v = e["registration"] { meta.registrationEndpoint = v }
        return meta
    }

    func discover(_ issuer: String, timeout: Double? = nil) async throws -> ProviderMetadata {
        let url = ProviderMetadata.discoveryURL(issuer: issuer)
        let now = context.clock.now()
        if let cached = try? context.documents.cachedDocument(url: url), cached.fetchedAt + Self.maxAge > now,
           let meta = try? ProviderMetadata.parse(cached.body, issuer: issuer) {
            return meta
        }
        let (meta, body) = try await ProviderMetadata.fetch(issuer: issuer, http: context.http, timeout: timeout)
        try? context.documents.cacheDocument(url: url, body: body, at: now)
        return meta
    }

    /// The issuer's keys; `refresh` skips the cache (after a signature failure, in case
    /// the provider rotated its keys).
    func keys(_ jwksURI: String?, refresh: Bool) async throws -> JWKSet? {
        guard let jwksURI else { return nil }
        let now = context.clock.now()
        if !refresh, let cached = try? context.documents.cachedDocument(url: jwksURI), cached.fetchedAt + Self.maxAge > now,
           let set = JWKSet(bytes: cached.body) {
            return set
        }
        let response = try await TokenEndpoint.send(HTTPRequest(url: jwksURI), via: context.http)
        guard response.status == 200, let set = JWKSet(bytes: response.body) else {
            throw AuthFailure(response.status >= 500 ? .transient : .misconfigured, code: "bad_jwks",
                              remedy: "the signing keys at \(jwksURI) could not be read (HTTP \(response.status))")
        }
        try? context.documents.cacheDocument(url: jwksURI, body: response.body, at: now)
        return set
    }
}
