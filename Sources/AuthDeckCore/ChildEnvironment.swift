/// The environment authdeck gives the programs it starts (`exec`'s command, `watch`'s hooks,
/// the browser of a sign-in): its own, less every secret it may hold.
///
/// Removed: the password and passphrase variables, tokens and jars of an outer `authdeck exec`,
/// and each variable a provider names in `client_secret_env` — a daemon's client secret is
/// authdeck's to use, not its children's to print. `AUTHDECK_PASSPHRASE_FILE` stays: it is a
/// path, not the secret, and a child running authdeck on a passphrase store needs it.
public enum ChildEnvironment {
    public static func scrubbed(_ environment: [String: String], providers: [ProviderProfile]) -> [String: String] {
        let configured = Set(providers.compactMap(\.clientSecretEnv))
        return environment.filter { !isSecret($0.key) && !configured.contains($0.key) }
    }

    /// authdeck's own secret variables.
    public static func isSecret(_ name: String) -> Bool {
        name == "AUTHDECK_PASSWORD" || name == "AUTHDECK_PASSPHRASE" || name.hasPrefix("AUTHDECK_TOKEN")
            || name == "AUTHDECK_COOKIE_JAR" || name.hasPrefix("AUTHDECK_WEBGATE_TOKENS")
    }
}
