import Foundation

/// A browser's cookie database copied into a private directory for reading.
///
/// Browsers hold their database open (Firefox locks it; Chromium may be mid-write), and the
/// newest cookies may still be in the WAL or journal, so the file and its sidecars are copied
/// into a fresh 0700 directory and read there; the copy is deleted as soon as it is read. The
/// directory is made in `scratch` — the command passes its runtime directory, a per-user tmpfs
/// when there is one, so copied cookies never reach a disk — else the temporary directory.
enum CookieDatabaseCopy {
    /// Runs `body` with the path of a private copy of `path`; `browser` names it in errors.
    static func reading<T>(_ path: String, scratch: String?, browser: String, _ body: (String) throws -> T) throws -> T {
        let fm = FileManager.default
        let base = scratch.flatMap { fm.isWritableFile(atPath: $0) ? $0 : nil } ?? fm.temporaryDirectory.path
        let dir = base + "/authdeck-import-\(UUID().uuidString)"
        guard mkdir(dir, 0o700) == 0 else { throw StoreError.io(path: dir, detail: "cannot create a private directory") }
        defer { try? fm.removeItem(atPath: dir) }
        let copy = dir + "/" + URL(fileURLWithPath: path).lastPathComponent
        do {
            try fm.copyItem(atPath: path, toPath: copy)
            for suffix in ["-wal", "-shm", "-journal"] where fm.fileExists(atPath: path + suffix) {
                try fm.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
        } catch {
            throw StoreError.io(path: path, detail: "cannot copy the \(browser) cookie database: \((error as NSError).localizedDescription)")
        }
        return try body(copy)
    }
}
