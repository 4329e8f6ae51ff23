import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckTestSupport

/// Issue 38: config.toml and theme files others could write are refused by the loaders, and
/// what authdeck writes as config is never looser than 0600.
@Suite struct ConfigFileTrustTests {
    let dir = TempDirectory("authdeck-config-file")

    func mode(_ path: String) -> mode_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    @Test func theLoaderRefusesAConfigOthersCanWrite() throws {
        let path = try dir.writeConfig(DeckFixture.configTOML)
        chmod(path, 0o600)
        #expect(try ConfigLoader.load(path: path, required: true, home: dir.path).providers.count == 5)
        chmod(path, 0o664)
        #expect(throws: ConfigError(path: path, location: nil, problem: "it is writable by group or others (mode 0664), who could change it, "
                                    + "so authdeck will not use it; fix it with: chmod go-w \(path)")) {
            try ConfigLoader.load(path: path, required: false, home: dir.path)
        }
    }

    @Test func aThemeOthersCanWriteIsRefusedByName() throws {
        let path = dir.file("loud.toml")
        try "[header]\nfg = \"red\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        #expect(try ThemeLoader.load(path, home: dir.path).name == "loud")
        chmod(path, 0o646)
        do {
            _ = try ThemeLoader.load(path, home: dir.path)
            Issue.record("a theme others can write was loaded")
        } catch let error as ConfigError {
            #expect(error.path == path && error.problem.contains("chmod go-w \(path)"), "\(error)")
        }
        chmod(path, 0o644)
        chmod(dir.path, 0o777)
        #expect(throws: ConfigError.self) { try ThemeLoader.load(path, home: dir.path) }
    }

    /// Written configs are 0600 under the usual umask (022 would give 0644), and a 0644 file
    /// rewritten becomes 0600. (Not under umask 0 here: the umask is the whole test process's,
    /// and tests running beside this one then made 0777 directories; `ConfigTrustTests` runs
    /// the binary under umask 0 instead.)
    @Test func writtenConfigsAreOwnerOnly() throws {
        let path = dir.file("new/config.toml")
        try ConfigWriter.write(DeckFixture.configTOML, to: path)
        #expect(mode(path) == 0o600)
        #expect(mode(dir.file("new")) == 0o700)
        chmod(path, 0o644)
        try ConfigWriter.append(ProviderProfile(id: "more", kind: .oidc, clientId: "c", endpoints: ["issuer": "https://idp.example"]), to: path)
        #expect(mode(path) == 0o600, "was 0644: \(String(mode(path), radix: 8))")
        chmod(path, 0o622)
        let before = try String(contentsOfFile: path, encoding: .utf8)
        #expect(throws: ConfigError.self) {
            try ConfigWriter.append(ProviderProfile(id: "evenmore", kind: .oidc, clientId: "c", endpoints: ["issuer": "https://idp.example"]), to: path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before && mode(path) == 0o622, "refused untouched")
        chmod(dir.file("new"), 0o777)
        #expect(throws: ConfigError.self) { try ConfigWriter.write("", to: dir.file("new/other.toml")) }
        #expect(!FileManager.default.fileExists(atPath: dir.file("new/other.toml")))
    }
}
