import Testing
import Foundation
import AuthDeckTestSupport

/// Every fuzz target runs briefly in CI (Tests/fuzz/run runs them for minutes): the corpus
/// loads, each target executes inputs, and nothing crashes or hangs.
@Suite struct FuzzSmokeTests {
    static let targets = ["oam-url", "netscape-cookies", "firefox-cookies", "msal-cache", "jwt", "config", "theme", "fast-path-records", "soap"]

    @Test func eachTargetRunsItsCorpusAndMutationsWithoutACrash() throws {
        let crashes = TempDirectory("authdeck-fuzz-crashes")
        let fuzz = BinaryRunner(product: "authdeck-fuzz", environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        let seed = UInt32.random(in: 1...UInt32.max)
        let r = try fuzz.run(["--seconds", "1", "--hang", "10", "--seed", "\(seed)", "--crashes", crashes.path], timeout: 120)
        print(r.stdout)
        #expect(r.status == 0, "seed \(seed): \(r.stderr)")
        let rows = r.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ").map(String.init) }
        #expect(rows.map { $0.first ?? "" } == Self.targets)
        for row in rows {
            #expect((Int(row[1]) ?? 0) > 20, "\(row[0]) ran \(row[1]) inputs")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: crashes.path).isEmpty, "no crash file")
    }

    @Test func anUnknownTargetIsAnErrorAndLeavesNothingBehind() throws {
        let tmp = TempDirectory("authdeck-fuzz-tmp")
        let fuzz = BinaryRunner(product: "authdeck-fuzz", environment: ["PATH": "/usr/bin:/bin", "TMPDIR": tmp.path + "/"])
        let r = try fuzz.run(["--seconds", "1", "tomll"])
        #expect(r.status == 2 && r.stderr.contains("no target tomll"), "\(r.stderr)")
        // Its scratch directory was left in /tmp on every run (exit skipped the clean-up).
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
    }
}
