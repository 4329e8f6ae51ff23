import Synchronization

/// Which account each device code the demo's deck shows is for, so the demo's approver signs
/// in as that account.
///
/// Why: approving every code as one user would sign that user in whichever account the deck
/// was mending, so the demo's stale hanako could never be mended ("Signed in oidc/taro…,
/// another account than oidc/hanako…").
final class DemoSignIns: Sendable {
    private let usernames = Mutex<[String: String]>([:])

    func record(code: String, username: String) {
        usernames.withLock { $0[code.uppercased()] = username }
    }

    func username(for code: String) -> String? {
        usernames.withLock { $0[code.uppercased()] }
    }
}
