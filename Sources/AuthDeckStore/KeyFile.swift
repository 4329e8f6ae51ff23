import Foundation
import Crypto
import AuthDeckVault

/// The key-encryption key kept in a 0600 file: authdeck's default key source on machines
/// with no keyring (SSH boxes, containers).
///
/// The file holds one line, `authdeck-key-v1:<base64 of 32 bytes>`. It does not encrypt
/// secrets itself: it wraps the store's data key, so switching key sources later re-wraps
/// one value instead of re-encrypting every secret.
public struct KeyFile: Sendable {
    public let path: String
    static let prefix = KeyFileFormat.prefix

    public init(path: String) { self.path = path }

    /// Whether anything exists at the path (a broken file still "exists": it is an error,
    /// never replaced).
    public var exists: Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
    }

    /// Reads the key; every way this can fail names the file and the problem.
    public func read() throws -> SymmetricKey {
        // lstat first: a FIFO or a link here is refused, never opened.
        _ = try FileSafety.regularFile(path, what: "key file")
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.keyFile(path: path, detail: exists ? "key file is not readable" : "key file is missing")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: 4096) ?? Data()
        } catch {
            throw StoreError.keyFile(path: path, detail: "cannot read key file: \(Self.reason(error))")
        }
        switch KeyFileFormat.parse(Array(data)) {
        case .success(let raw):
            return SymmetricKey(data: raw)
        case .failure(.notText):
            throw StoreError.keyFile(path: path, detail: "key file is not text; expected one line starting with \(Self.prefix)")
        case .failure(.notAKeyFile):
            throw StoreError.keyFile(path: path, detail: "not an authdeck key file; expected one line starting with \(Self.prefix)")
        case .failure(.badKey):
            throw StoreError.keyFile(path: path, detail: "key file is damaged: the key is not 32 bytes of base64")
        }
    }

    /// Creates a new random key file with mode 0600; refuses to replace an existing one.
    public func create() throws -> SymmetricKey {
        let (key, created) = try createOrRead()
        guard created else { throw StoreError.io(path: path, detail: "cannot create file: File exists") }
        return key
    }

    /// The key of a new key file, or of the one another process created first.
    ///
    /// Why not `O_EXCL` and write: a process starting at the same moment could read the file
    /// between its creation and its contents. The key is written and synced under a private
    /// name and then `link(2)`ed into place, which is atomic and fails if the file exists.
    public func createOrRead() throws -> (key: SymmetricKey, created: Bool) {
        let key = SymmetricKey(size: .bits256)
        let line = KeyFileFormat.line(for: key.withUnsafeBytes { Array($0) })
        _ = try FileSafety.ensurePrivateDirectory((path as NSString).deletingLastPathComponent)
        let temporary = "\(path).new.\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
        try FileSafety.createPrivateFile(temporary, contents: Array(line.utf8))
        defer { unlink(temporary) }
        if link(temporary, path) == 0 { return (key, true) }
        guard errno == EEXIST else {
            throw StoreError.io(path: path, detail: "cannot create file: \(String(cString: strerror(errno)))")
        }
        return (try read(), false)
    }

    static func reason(_ error: Error) -> String {
        (error as NSError).localizedDescription
    }
}
