/// Whether an account's realm is another tenant than the one its provider pins.
///
/// Why one rule: the prune policy calls such an account stale ("wrong tenant"), and a token
/// for it must not be handed to a script that asked for the pinned tenant's — `token prod`
/// answered with a token of the dev tenant. Both binaries ask here.
public enum TenantPin {
    /// True when both are known, comparable (two GUIDs, or two names: a GUID and a domain
    /// name may be the same tenant) and differ beyond letter case.
    public static func differs(expected: String?, actual: String?) -> Bool {
        guard let expected, let actual, isGUID(expected) == isGUID(actual) else { return false }
        return expected.lowercased() != actual.lowercased()
    }

    static func isGUID(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return s.allSatisfy { $0 == "-" || $0.isHexDigit }
    }
}
