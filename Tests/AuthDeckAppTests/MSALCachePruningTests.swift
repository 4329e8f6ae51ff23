import Testing
import Foundation
import AuthDeckCore
import AuthDeckProviders
import AuthDeckApp
import AuthDeckTestSupport

/// `MSALCachePruning` on a real cache file: which accounts each selection removes, that a dry
/// run changes nothing and writes no backup, and that a prune leaves a backup of the old cache.
struct MSALCachePruningTests {
    let dir = TempDirectory()
    let now = Instant(secondsSinceEpoch: 1_800_000_000)

    func usernames(_ path: String) throws -> [String] {
        try MSALCacheFile(path: path).read().entries().map(\.username)
    }

    /// By default only the half-finished sign-in (no refresh token) goes; its backup holds the old cache.
    @Test func theDefaultRemovesAccountsWithoutARefreshToken() throws {
        let path = try MSALCacheSample.write(in: dir)
        let preview = try MSALCachePruning(keep: [], tenant: nil, reasons: []).run(MSALCacheFile(path: path), lockTimeout: 5, now: now, dryRun: true)
        #expect(preview.accounts.map(\.username) == ["carol@contoso.com"] && preview.backup == nil)
        #expect(try usernames(path) == ["alice@contoso.com", "bob@contoso.com", "carol@contoso.com"], "a dry run changes nothing")
        let done = try MSALCachePruning(keep: [], tenant: nil, reasons: []).run(MSALCacheFile(path: path), lockTimeout: 5, now: now, dryRun: false)
        #expect(done.accounts.map(\.username) == ["carol@contoso.com"] && done.entries["Account"]?.count == 1)
        #expect(try usernames(path) == ["alice@contoso.com", "bob@contoso.com"])
        let backup = try #require(done.backup)
        #expect(try usernames(backup) == ["alice@contoso.com", "bob@contoso.com", "carol@contoso.com"])
    }

    /// `keep` removes everyone else (their refresh tokens with them); `tenant` removes the
    /// other tenants' accounts.
    @Test func keepAndTenantSelectTheRest() throws {
        let path = try MSALCacheSample.write(in: dir)
        let others = try MSALCachePruning(keep: ["ALICE@contoso.com"], tenant: nil, reasons: []).run(MSALCacheFile(path: path), lockTimeout: 5, now: now, dryRun: true)
        #expect(others.accounts.map(\.username) == ["bob@contoso.com", "carol@contoso.com"])
        #expect(others.entries["RefreshToken"]?.count == 1, "bob's refresh token goes with bob: \(others.entries)")
        let tenant = try MSALCachePruning(keep: [], tenant: MSALCacheSample.tenantOne, reasons: []).run(MSALCacheFile(path: path), lockTimeout: 5, now: now, dryRun: false)
        #expect(tenant.accounts.map(\.username) == ["carol@contoso.com"] && tenant.accounts.first?.verdicts.contains(.wrongTenant) == true)
        #expect(try usernames(path) == ["alice@contoso.com", "bob@contoso.com"])
        // Nothing selected: nothing written, no backup.
        let none = try MSALCachePruning(keep: [], tenant: nil, reasons: []).run(MSALCacheFile(path: path), lockTimeout: 5, now: now, dryRun: false)
        #expect(none.accounts.isEmpty && none.backup == nil)
    }
}
