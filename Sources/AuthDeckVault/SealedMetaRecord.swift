import AuthDeckCore

/// A record the front reads from the meta table without the full binary (`FrontRecord`,
/// `StatusFastPath`): its text under `metaKey`, and under `sealKey` an empty value sealed with
/// that text as associated data (`sealingContext`), so a writer without the key can delete it
/// but not edit, copy or replay it. One description, so the store's writer and reader and the
/// front's reader are each written once for both.
public protocol SealedMetaRecord: Equatable, Sendable {
    static var metaKey: String { get }
    static var sealKey: String { get }
    var encoded: String { get }
    init?(encoded: String)
    /// The config file the record was made from (`ConfigFileIdentity`): a record of
    /// another file, or of this one before an edit, is not believed.
    var configIdentity: String { get }
    /// The associated data of the record's seal (`SealingContext`), bound to `encoded`.
    var sealingContext: String { get }
    /// Meta keys of records this one replaced, deleted when it is written (none by default).
    static var retiredMetaKeys: [String] { get }
}

extension SealedMetaRecord {
    public static var retiredMetaKeys: [String] { [] }
}

extension FrontRecord: SealedMetaRecord {
    public var sealingContext: String { SealingContext.frontRecord(encoded) }
}

extension StatusFastPath: SealedMetaRecord {
    public var sealingContext: String { SealingContext.statusFastPath(encoded) }
}
