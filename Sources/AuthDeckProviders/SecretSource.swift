import Foundation
import AuthDeckCore

/// Reads secrets a provider config points at: a file or an environment variable, never
/// the config itself and never argv (where `ps` would show them).
public enum SecretSource {
    /// The client secret of a profile, or nil when it names none.
    public static func clientSecret(_ profile: ProviderProfile, environment: [String: String]) throws -> Secret? {
        if let name = profile.clientSecretEnv {
            guard let value = environment[name], !value.isEmpty else {
                throw AuthFailure(.misconfigured, code: "no_secret",
                                  remedy: "provider \"\(profile.id)\": environment variable \(name) (client_secret_env) is not set")
            }
            return Secret(value)
        }
        if let path = profile.clientSecretFile {
            return try file(path, what: "provider \"\(profile.id)\": client_secret_file", environment: environment)
        }
        return nil
    }

    /// The contents of a secret file, without its trailing newline.
    public static func file(_ path: String, what: String, environment: [String: String]) throws -> Secret {
        let expanded = expandHome(path, environment: environment)
        guard let data = FileManager.default.contents(atPath: expanded), let text = String(data: data, encoding: .utf8) else {
            throw AuthFailure(.misconfigured, code: "no_secret", remedy: "\(what) \(expanded) cannot be read")
        }
        let value = text.trimmingCharacters(in: .newlines)
        guard !value.isEmpty else { throw AuthFailure(.misconfigured, code: "no_secret", remedy: "\(what) \(expanded) is empty") }
        return Secret(value)
    }

    public static func expandHome(_ path: String, environment: [String: String]) -> String {
        guard path.hasPrefix("~/") else { return path }
        return (environment["HOME"] ?? NSHomeDirectory()) + String(path.dropFirst(1))
    }
}
