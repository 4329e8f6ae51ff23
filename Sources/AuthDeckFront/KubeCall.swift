#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import AuthDeckCore

/// `authdeck kube-credential ACCOUNT [--scope S]…` as kubectl runs it, recognised only in its
/// plain forms, and the API version `KUBERNETES_EXEC_INFO` asks for.
///
/// Why so narrow: anything the front is not sure to read exactly as `authdeck-full`'s argument
/// parser and JSON reader do — other options, `--scope=S`, a value that looks like an option,
/// help, an exec info it cannot read plainly — is handed over.
struct KubeCall: Equatable {
    var account: String
    var scopes: [String]
    var apiVersion: String

    /// The call in `arguments` (with the program name) and `environment`, or nil to hand over.
    init?(_ arguments: [String], environment: [String: String]) {
        guard arguments.count >= 3, arguments[1] == "kube-credential" else { return nil }
        var account: String?
        var scopes: [String] = []
        var i = 2
        while i < arguments.count {
            let word = arguments[i]
            if word == "--scope" {
                guard i + 1 < arguments.count, Self.plainValue(arguments[i + 1]) else { return nil }
                scopes.append(arguments[i + 1])
                i += 2
            } else {
                guard account == nil, Self.plainValue(word), word != "help" else { return nil }
                account = word
                i += 1
            }
        }
        guard let account, let apiVersion = Self.apiVersion(environment["KUBERNETES_EXEC_INFO"]) else { return nil }
        (self.account, self.scopes, self.apiVersion) = (account, scopes, apiVersion)
    }

    /// A word the argument parser takes as a value: not empty, not an option.
    static func plainValue(_ word: String) -> Bool { !word.isEmpty && !word.hasPrefix("-") }

    /// The version kubectl asks for (v1 when it says nothing), nil when the text is not plain
    /// enough to be read here exactly as `JSONSerialization` reads it: escapes, or the key
    /// named more than once (a nested object may name it too), go to authdeck-full.
    static func apiVersion(_ info: String?) -> String? {
        guard let info else { return ExecCredentialText.versions[0] }
        // Cluster info names where the token goes: authdeck-full holds it to the one decision.
        guard !info.contains("\\"), !info.contains("\"cluster\""), info.ranges(of: "\"apiVersion\"").count <= 1,
              let parsed = try? JSONDecoder().decode(ExecInfo.self, from: Data(info.utf8)) else { return nil }
        guard let version = parsed.apiVersion, ExecCredentialText.versions.contains(version) else { return ExecCredentialText.versions[0] }
        return version
    }

    /// The one field of kubectl's `ExecCredential` input the answer depends on.
    struct ExecInfo: Decodable {
        var apiVersion: String?
    }
}
