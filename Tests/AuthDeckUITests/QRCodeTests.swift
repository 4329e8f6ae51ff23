import Testing
import AuthDeckCore
import AuthDeckUI
import AuthDeckTerminal

/// The device-code modal's QR code: real libqrencode output, and how the modal draws it.
@Suite struct QRCodeTests {
    /// The three finder patterns (7×7: dark ring, light ring, dark 3×3 centre) where the QR
    /// standard puts them, and none in the fourth corner.
    @Test func libqrencodeEncodesAURLWithFinderPatterns() throws {
        #expect(QREncoder.isAvailable, "libqrencode4 is installed by scripts/deps")
        let qr = try #require(QREncoder.encode("http://127.0.0.1:41234/devicelogin?code=ABCD-1234"))
        #expect((qr.size - 17) % 4 == 0 && qr.size >= 21, "a QR code is 17 + 4·version modules wide, got \(qr.size)")
        func finder(_ ox: Int, _ oy: Int) -> Bool {
            (0..<7).allSatisfy { y in
                (0..<7).allSatisfy { x in
                    let ring = max(abs(x - 3), abs(y - 3))
                    return qr[ox + x, oy + y] == (ring != 2)
                }
            }
        }
        #expect(finder(0, 0) && finder(qr.size - 7, 0) && finder(0, qr.size - 7))
        #expect(!finder(qr.size - 7, qr.size - 7))
        #expect(QREncoder.encode("") == nil)
    }

    @Test func halfBlocksDrawTwoModuleRowsPerLine() {
        // A 2×2 code: dark top-left and bottom-right.
        let qr = QRMatrix(size: 2, dark: [true, false, false, true])
        #expect(qr.halfBlockLines(quiet: 1) == ["█▀██", "██▄█"])
    }

    @Test func theDeviceCodeModalShowsTheCodeWhenThereIsRoom() throws {
        let uri = "http://127.0.0.1:41234/devicelogin?code=ABCD-1234"
        let qr = try #require(QREncoder.encode(uri))
        var s = DeckTestState.make(width: 120, height: 40)
        s.modal = .deviceCode(id: "x", userCode: "ABCD-1234", uri: uri, expiresAt: DeckTestState.now + .minutes(15), note: nil)
        _ = DeckReducer.reduce(&s, .qrCode(uri: uri, qr))
        let big = DeckRenderer.render(s).text
        #expect(big.contains("or scan:"))
        for line in qr.halfBlockLines() { #expect(big.contains(line)) }
        _ = DeckReducer.reduce(&s, .resize(width: 80, height: 24))
        #expect(!DeckRenderer.render(s).text.contains("or scan:"), "80×24 has no room: the URL and code alone")
        _ = DeckReducer.reduce(&s, .resize(width: 120, height: 40))
        #expect(!DeckRenderer.render(s, glyphs: .plain).text.contains("or scan:"), "ASCII glyphs draw no half blocks")
    }
}
