import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckPlatform

/// Maps a config `kind` to its adapter: the one line a new provider adds.
public enum ProviderRegistry {
    /// - Parameter config: every configured provider, for kinds that build on another
    ///   provider (SharePoint on Azure AD).
    public static func adapter(for profile: ProviderProfile, context base: AdapterContext,
                               config: [ProviderProfile] = []) throws -> any ProviderAdapter {
        let context = try withTLS(profile, base)
        switch profile.kind {
        case .oidc:
            return try OIDCAdapter(profile: profile, context: context)
        case .azuread:
            return try AzureADAdapter(profile: profile, context: context)
        case .sharepoint:
            return try SharePointAdapter(profile: profile, context: context, providers: config)
        case .facebook:
            return try FacebookAdapter(profile: profile, context: context)
        case .oam:
            return try OAMAdapter(profile: profile, context: context)
        }
    }

    /// Adds the provider's TLS settings to its HTTP client: `options.ca_file` (a private CA to
    /// trust), `options.client_certificate_file` + `client_key_file` (PEM on disk), or a
    /// certificate imported with `authdeck import cert` (sealed in the store, given to libcurl
    /// from memory). Verification itself can never be turned off.
    static func withTLS(_ profile: ProviderProfile, _ context: AdapterContext) throws -> AdapterContext {
        let tls = try tlsOptions(for: profile, context: context)
        guard tls != TLSOptions() else { return context }
        var out = context
        out.http = TLSHTTPClient(base: context.http, tls: tls)
        return out
    }

    /// The provider's TLS settings alone, for requests to its resources (`authdeck request`).
    public static func tlsOptions(for profile: ProviderProfile, context: AdapterContext) throws -> TLSOptions {
        var tls = TLSOptions()
        let o = profile.options
        if let ca = o["ca_file"] {
            let path = SecretSource.expandHome(ca, environment: context.environment)
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\": options.ca_file \(path) cannot be read")
            }
            // Whoever can write the CA file chooses whom TLS believes: held to config.toml's rule.
            if let problem = TrustedPath.problem(path, home: XDG.home(context.environment)) {
                throw AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\": options.ca_file \(path): \(problem)")
            }
            tls.caFile = path
        }
        tls.clientCertificateFile = o["client_certificate_file"].map { SecretSource.expandHome($0, environment: context.environment) }
        tls.clientKeyFile = o["client_key_file"].map { SecretSource.expandHome($0, environment: context.environment) }
        if let secrets = context.providerSecrets {
            if let cert = try secrets.providerSecret("client.certificate", provider: profile.id),
               let key = try secrets.providerSecret("client.key", provider: profile.id) {
                tls.clientIdentity = .pem(certificate: Array(cert.exposedValue.utf8), key: key)
            } else if let bundle = try secrets.providerSecret("client.pkcs12", provider: profile.id) {
                tls.clientIdentity = .pkcs12(bundle: bundle, password: try secrets.providerSecret("client.pkcs12.password", provider: profile.id))
            }
        }
        return tls
    }
}
