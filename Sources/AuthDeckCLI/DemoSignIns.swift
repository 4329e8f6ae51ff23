import Synchronization

/// Which account each device code the demo's deck shows is for, so the demo's approver signs
/// in as that account.
///
/// Why: the approver approved every code as taro, so the demo's stale hanako could never be
/// mended ("Signed in oidc/taro…, another account than oidc/hanako…", issue 31).
final class DemoSignIns: Sendable {
    private let usernames = Mutex<[String: String]>([:])

    func record(code: String, username: String) {
        usernames.withLock { $0[code.uppercased()] = username }
    }

    func username(for code: String) -> String? {
        usernames.withLock { $0[code.uppercased()] }
    }
}
