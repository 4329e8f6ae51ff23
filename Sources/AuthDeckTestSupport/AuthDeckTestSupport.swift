/// AuthDeckTestSupport: fakes and fixtures shared by the test targets (`DeckFixture`,
/// `MutableClock`, `TempDirectory`, `BinaryRunner`). Never linked into a product.
public enum AuthDeckTestSupport {}
