/// AuthDeckTestSupport: fakes and fixtures shared by the test targets.
public enum AuthDeckTestSupport {}
