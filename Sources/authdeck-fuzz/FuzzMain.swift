import Foundation

/// `authdeck-fuzz`: runs every parser that reads outside input over seeded mutations of the
/// checked-in corpus and prints executions per second.
///
///     authdeck-fuzz [--seconds S] [--hang S] [--seed N] [--corpus DIR] [--crashes DIR] [TARGET…]
///
/// Why a mutation harness and not only libFuzzer: the TOML and SQLite parsers live behind
/// C++ and C packages SwiftPM builds (TOMLKit, GRDB), which a `swiftc -sanitize=fuzzer`
/// build cannot reach; Tests/fuzz/run drives libFuzzer on the pure-Swift parsers as well. A
/// crash writes its input to the crash directory and exits 70; an input running longer than
/// --hang seconds (default 10) exits 71.
@main
struct FuzzMain {
    static func main() throws {
        var args = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String) -> String? {
            guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
            defer { args.removeSubrange(i...i + 1) }
            return args[i + 1]
        }
        let seconds = Double(option("--seconds") ?? "5") ?? 5
        let hang = Double(option("--hang") ?? "10") ?? 10
        let seed = UInt64(option("--seed") ?? "") ?? UInt64(Date().timeIntervalSince1970)
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tests/fuzz/corpus").standardized.path
        let corpusRoot = option("--corpus") ?? here
        let crashes = option("--crashes") ?? FileManager.default.currentDirectoryPath
        let scratch = NSTemporaryDirectory() + "authdeck-fuzz.\(getpid())"
        let all = FuzzTarget.all(scratch: scratch)
        let targets = all.filter { args.isEmpty || args.contains($0.name) }
        let unknown = Set(args).subtracting(all.map(\.name))
        guard unknown.isEmpty else {
            FileHandle.standardError.write(Data("authdeck-fuzz: no target \(unknown.sorted().joined(separator: ", "))\n".utf8))
            exit(2)
        }
        // Made after the arguments are checked: exit(2) skips the defer (FuzzSmokeTests' unknown
        // target left one directory in /tmp per run).
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        func row(_ cells: [String]) -> String {
            cells[0].padding(toLength: 18, withPad: " ", startingAt: 0) + cells.dropFirst().map { String(repeating: " ", count: max(0, 10 - $0.count)) + $0 }.joined()
        }
        print(row(["target", "execs", "execs/s", "corpus", "crashes"]) + "   seed \(seed)")
        fflush(nil)
        for target in targets {
            let dir = corpusRoot + "/" + target.name
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
            let corpus = files.compactMap { FileManager.default.contents(atPath: dir + "/" + $0).map { Array($0) } }
            guard !corpus.isEmpty else {
                FileHandle.standardError.write(Data("authdeck-fuzz: \(dir): no corpus\n".utf8))
                try? FileManager.default.removeItem(atPath: scratch)
                exit(2)
            }
            CrashCapture.install(file: "\(crashes)/crash-\(target.name)-\(seed)")
            CrashCapture.watch(limit: hang)
            var mutator = Mutator(seed: seed, dictionary: target.dictionary)
            let start = Date()
            var execs = 0
            // Every seed as it is first, then mutations until the time is up.
            for input in corpus {
                CrashCapture.hold(input)
                target.run(input)
                execs += 1
            }
            while Date().timeIntervalSince(start) < seconds {
                for _ in 0..<64 {
                    let input = mutator.mutate(corpus[mutator.below(corpus.count)], other: corpus[mutator.below(corpus.count)])
                    CrashCapture.hold(input)
                    target.run(input)
                    execs += 1
                }
            }
            let elapsed = Date().timeIntervalSince(start)
            print(row([target.name, "\(execs)", "\(Int(Double(execs) / elapsed))", "\(corpus.count)", "0"]))
            fflush(nil)
        }
    }
}
