import Testing
import Foundation
import AuthDeckConfig
import AuthDeckUI
import AuthDeckLook

/// Every shipped theme parses; a broken one names the file, the role and the key.
@Suite struct ThemeTests {
    static let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../themes").standardized

    @Test func everyShippedThemeParses() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.dir.path).filter { $0.hasSuffix(".toml") }.sorted()
        #expect(files == ["default.toml", "high-contrast.toml", "monochrome.toml", "solarized-dark.toml"])
        for file in files {
            let theme = try ThemeLoader.load(Self.dir.appendingPathComponent(file).path)
            #expect(theme.name == String(file.dropLast(5)))
        }
        // The shipped default says what the built-in default is.
        #expect(try ThemeLoader.load(Self.dir.appendingPathComponent("default.toml").path).styles == Theme.standard.styles)
        #expect(try ThemeLoader.load(Self.dir.appendingPathComponent("monochrome.toml").path).styles == Theme.monochrome.styles)
    }

    @Test func aPartialThemeKeepsTheRestOfTheDefault() throws {
        let t = try ThemeLoader.parse("[valid]\nfg = \"blue\"\n", name: "mine", path: "mine.toml")
        #expect(t.style(.valid).fg == .blue)
        #expect(t.style(.expired) == Theme.standard.style(.expired))
    }

    @Test(arguments: [
        ("[valid]\nfg = \"purple\"", "mine.toml: [valid]: \"fg\" must be one of default, black, red, green, yellow, blue, magenta, cyan, white (found \"purple\")"),
        ("[valid]\nbold = \"yes\"", "mine.toml: [valid]: \"bold\" must be true or false (found a string)"),
        ("[vaild]\nfg = \"red\"", "mine.toml: unknown key \"vaild\" (did you mean \"valid\"?)"),
        ("[valid]\ncolour = \"red\"", "mine.toml: [valid]: unknown key \"colour\"; known keys: fg, bg, bold, reverse, underline, dim"),
    ])
    func brokenThemesAreNamed(text: String, message: String) {
        #expect(throws: ConfigError.self) { try ThemeLoader.parse(text, name: "mine", path: "mine.toml") }
        do { _ = try ThemeLoader.parse(text, name: "mine", path: "mine.toml") } catch { #expect("\(error)" == message) }
    }
}
