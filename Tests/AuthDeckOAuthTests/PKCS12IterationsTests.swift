import Testing
import Foundation
import AuthDeckHTTP

/// The iteration counts read from a PKCS#12 bundle before anything is derived (issue 26: a
/// bundle asking for 2^31−1 PBKDF2 iterations pinned a CPU for hours at `import cert`).
@Suite struct PKCS12IterationsTests {
    /// DER of one element (definite length).
    static func der(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let n = content.count
        let length: [UInt8] = n < 0x80 ? [UInt8(n)] : n < 0x100 ? [0x81, UInt8(n)] : [0x82, UInt8(n >> 8), UInt8(n & 0xFF)]
        return [tag] + length + content
    }
    static func seq(_ parts: [UInt8]...) -> [UInt8] { der(0x30, parts.flatMap { $0 }) }
    static func int(_ bytes: [UInt8]) -> [UInt8] { der(0x02, bytes) }
    static let sha256OID = der(0x06, [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01])
    static let dataOID = der(0x06, [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01])
    static let pbkdf2OID = der(0x06, [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0C])
    static let pbes2OID = der(0x06, [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0D])

    /// A PFX whose MAC asks for `mac` iterations and whose one bag's PBES2/PBKDF2 asks for
    /// `key`, the bag inside the authenticated safe's OCTET STRING as real bundles have it.
    static func pfx(mac: [UInt8], key: [UInt8]) -> [UInt8] {
        let pbkdf2 = seq(pbkdf2OID, seq(der(0x04, [1, 2, 3, 4, 5, 6, 7, 8]), int(key)))
        let bag = seq(der(0x06, [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x0A, 0x01, 0x02]),
                      der(0xA0, seq(seq(pbes2OID, seq(pbkdf2, seq(der(0x06, [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2A]),
                                                                  der(0x04, Array(repeating: 0, count: 16))))),
                                    der(0x04, Array(repeating: 0xAB, count: 32)))))
        let safe = seq(seq(dataOID, der(0xA0, der(0x04, seq(bag)))))
        let authSafe = seq(dataOID, der(0xA0, der(0x04, safe)))
        let macData = seq(seq(seq(sha256OID, der(0x05, [])), der(0x04, Array(repeating: 0, count: 32))), der(0x04, [9, 9, 9, 9]), int(mac))
        return seq(int([3]), authSafe, macData)
    }

    @Test func theLargestCountOfTheMacAndTheKeyIsFound() {
        #expect(PKCS12Iterations.largest(in: Self.pfx(mac: [0x08, 0x00], key: [0x08, 0x00])) == 2048)
        #expect(PKCS12Iterations.largest(in: Self.pfx(mac: [0x7F, 0xFF, 0xFF, 0xFF], key: [0x08, 0x00])) == 2_147_483_647, "2^31-1 in the MAC")
        #expect(PKCS12Iterations.largest(in: Self.pfx(mac: [0x08, 0x00], key: [0x7F, 0xFF, 0xFF, 0xFF])) == 2_147_483_647, "2^31-1 in a shrouded key bag")
        #expect(PKCS12Iterations.largest(in: Self.pfx(mac: [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], key: [1])) == Int.max, "too large for an Int")
        #expect(PKCS12Iterations.largest(in: Self.pfx(mac: [0x80], key: [1])) == Int.max, "a negative count is no way round the cap")
        #expect(PKCS12Iterations.largest(in: [0x30, 0x05, 0x02, 0x01]) == nil, "truncated")
        #expect(PKCS12Iterations.largest(in: Array(repeating: 0x30, count: 60) + Array(repeating: 0x80, count: 1)) == nil, "nesting without end")
    }

    /// A bundle as OpenSSL writes it: its default count, and one exported with more.
    @Test func openSSLBundlesReadAsTheyWereMade() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("authdeck-p12-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func openssl(_ args: [String]) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            p.arguments = args
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "openssl \(args)")
        }
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=t", "-days", "1",
                     "-keyout", "\(dir)/k.pem", "-out", "\(dir)/c.pem"])
        for (iter, expected) in [(nil, 2048), ("4096", 4096)] as [(String?, Int)] {
            let out = "\(dir)/b\(iter ?? "").p12"
            try openssl(["pkcs12", "-export", "-in", "\(dir)/c.pem", "-inkey", "\(dir)/k.pem", "-out", out, "-passout", "pass:x"] + (iter.map { ["-iter", $0] } ?? []))
            let bytes = try #require(FileManager.default.contents(atPath: out))
            #expect(PKCS12Iterations.largest(in: Array(bytes)) == expected, "\(iter ?? "default")")
        }
    }
}
