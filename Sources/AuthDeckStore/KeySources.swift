import Foundation
import Crypto

/// Where the key that wraps a store's data key comes from. There is no plaintext source.
public enum KeySourceKind: String, CaseIterable, Sendable {
    /// A 0600 file beside the store (the default: works on every machine).
    case file
    /// A passphrase stretched with scrypt, asked for or read from `AUTHDECK_PASSPHRASE_FILE`.
    case passphrase
    /// An item in the Secret Service (libsecret) of the session bus.
    case keyring
}

/// Why authdeck asks for a passphrase: to open a store, or to seal one with a new passphrase.
public enum PassphrasePurpose: Sendable {
    case unlock(storePath: String)
    case choose(storePath: String)
}

/// The key sources one process can reach, and how each yields a wrapping key.
///
/// Why the passphrase is a closure: the store cannot know whether there is a terminal to ask
/// on; the command line decides (a file named by `AUTHDECK_PASSPHRASE_FILE`, a prompt, or an
/// error saying how to give one).
public struct KeySources: Sendable {
    public var keyFile: KeyFile
    public var passphrase: @Sendable (PassphrasePurpose) throws -> String
    public var keyring: SecretServiceKeyring

    public init(keyFile: KeyFile, keyring: SecretServiceKeyring = SecretServiceKeyring(),
                passphrase: @escaping @Sendable (PassphrasePurpose) throws -> String = KeySources.noPassphrase) {
        self.keyFile = keyFile
        self.passphrase = passphrase
        self.keyring = keyring
    }

    /// The default when nothing can ask: an error saying how to give the passphrase.
    public static let noPassphrase: @Sendable (PassphrasePurpose) throws -> String = { purpose in
        switch purpose {
        case .unlock(let path), .choose(let path):
            throw StoreError.keySource(source: "passphrase",
                detail: "\(path) is sealed with a passphrase; set AUTHDECK_PASSPHRASE_FILE to a file holding it, or run in a terminal to be asked")
        }
    }

    static func missingKeyFile(_ storePath: String) -> String {
        "key file is missing, and the store \(storePath) was sealed with it; restore the file or point AUTHDECK_KEY_FILE at it"
    }

    /// The wrapping key of an existing store sealed with `kind`.
    func unlockKey(_ sealing: DataKeySealing, storePath: String) throws -> SymmetricKey {
        switch sealing.kind {
        case .file:
            guard keyFile.exists else { throw StoreError.keyFile(path: keyFile.path, detail: Self.missingKeyFile(storePath)) }
            return try keyFile.read()
        case .passphrase:
            let parameters = try PassphraseKey(encoded: sealing.parameters ?? "")
            return try parameters.derive(try passphrase(.unlock(storePath: storePath)))
        case .keyring:
            guard let id = sealing.storeID else {
                throw StoreError.keySource(source: "Secret Service", detail: "\(storePath) names the Secret Service but has no store id (damaged meta table)")
            }
            guard let text = try keyring.lookup(storeID: id) else {
                throw StoreError.keySource(source: "Secret Service",
                    detail: "no item for \(storePath) (attribute store=\(id)) in the Secret Service of this session; unlock the keyring that holds it, or restore it")
            }
            guard let raw = Data(base64Encoded: text), raw.count == 32 else {
                throw StoreError.keySource(source: "Secret Service", detail: "the item for \(storePath) (store=\(id)) is not an authdeck key")
            }
            return SymmetricKey(data: raw)
        }
    }

    /// A new wrapping key for `kind` and the parameters to keep beside the wrapped data key.
    func newKey(_ kind: KeySourceKind, storeID: String, storePath: String) throws -> (key: SymmetricKey, parameters: String?) {
        switch kind {
        case .file:
            return (try keyFile.createOrRead().key, nil)
        case .passphrase:
            let chosen = try passphrase(.choose(storePath: storePath))
            guard !chosen.isEmpty else { throw StoreError.keySource(source: "passphrase", detail: "the passphrase is empty") }
            if let problem = PassphraseRules.problem(withNew: chosen) { throw StoreError.keySource(source: "passphrase", detail: problem) }
            let parameters = PassphraseKey.fresh()
            return (try parameters.derive(chosen), parameters.encoded)
        case .keyring:
            let key = SymmetricKey(size: .bits256)
            let text = key.withUnsafeBytes { Data($0).base64EncodedString() }
            try keyring.store(storeID: storeID, label: "authdeck data key wrapping key (\(storePath))", secret: text)
            return (key, nil)
        }
    }

    /// How `status` and the deck header name the source.
    func describe(_ sealing: DataKeySealing) -> String {
        switch sealing.kind {
        case .file: return "key file \(keyFile.path)"
        case .passphrase:
            let cost = (try? PassphraseKey(encoded: sealing.parameters ?? "")).map { " N=\($0.cost)" } ?? ""
            return "passphrase (scrypt\(cost))"
        case .keyring: return "Secret Service (store=\(sealing.storeID ?? "?"))"
        }
    }
}
