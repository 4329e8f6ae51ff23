import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension OutputFile {
    /// What follows `.NAME` in a staged download's name, before its random base-36 tail.
    static let stagedMarker = ".authdeck-"
    /// How old a staged download must be before a later one beside it removes it.
    static let sweepAge: TimeInterval = 3600

    /// Removes staged downloads of `name` left in `directory` by an earlier `request -o` that
    /// was killed (SIGKILL, a crash, a power cut) before it could: regular files of this user
    /// named exactly `.NAME.authdeck-` and 1–13 base-36 characters, untouched for an hour.
    ///
    /// Why so narrow: the directory is the user's (their home, a project); nothing but what
    /// this command itself would have made there may go. Why an hour: a download still under
    /// way in another process keeps writing its file, so its time stays recent.
    static func sweep(directory: String, name: String, now: Date = Date()) {
        let prefix = "." + name + stagedMarker
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in names where isStaged(entry, prefix: prefix) {
            let path = directory == "/" ? "/" + entry : directory + "/" + entry
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
                  now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec) > sweepAge else { continue }
            unlink(path)
        }
    }

    /// Whether `entry` is `prefix` followed by what `String(_:radix: 36)` of a UInt64 gives.
    static func isStaged(_ entry: String, prefix: String) -> Bool {
        guard entry.hasPrefix(prefix) else { return false }
        let tail = entry.utf8.dropFirst(prefix.utf8.count)
        return (1...13).contains(tail.count) && tail.allSatisfy { (48...57).contains($0) || (97...122).contains($0) }
    }
}
