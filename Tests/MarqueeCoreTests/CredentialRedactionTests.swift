import MarqueeCore
import Testing

@Suite struct CredentialRedactionTests {
    @Test(arguments: [
        ("http://user:secret@host/a.mp4", "http://user:***@host/a.mp4"),
        ("https://user:secret@cdn.example.com:8443/live/x.m3u8?token=1", "https://user:***@cdn.example.com:8443/live/x.m3u8?token=1"),
        ("http://user:secret@host", "http://user:***@host"),
        // An unescaped @ in the password: the last @ before the path ends the user info.
        ("http://user:p@ss@host/a.mp4", "http://user:***@host/a.mp4"),
        ("http://user:s%40cret@host/a.mp4", "http://user:***@host/a.mp4"),
        // In a line of prose, and more than one URL in it.
        ("error: http://a:one@h1/x.mp4: server refused (HTTP 401); see http://b:two@h2/",
         "error: http://a:***@h1/x.mp4: server refused (HTTP 401); see http://b:***@h2/"),
        ("invalid URL 'http://user:secret@'", "invalid URL 'http://user:***@'"),
        // Nothing to hide: a user name alone, no user info, an @ in a path or a query.
        ("http://user@host/a.mp4", "http://user@host/a.mp4"),
        ("http://host/a@2x.png", "http://host/a@2x.png"),
        ("http://host/p?from=http://x/a@b", "http://host/p?from=http://x/a@b"),
        ("/media/me@home/clip.mp4", "/media/me@home/clip.mp4"),
        ("http://user:@host/a.mp4", "http://user:@host/a.mp4"),
        // Already hidden stays the same.
        ("http://user:***@host/a.mp4", "http://user:***@host/a.mp4"),
    ])
    func hidesThePasswordOfEveryURLInAText(text: String, shown: String) {
        #expect(CredentialRedaction.redacted(text) == shown)
    }

    @Test func eventsAndErrorsShowTheURLWithoutItsPassword() {
        let url = "http://user:secret@127.0.0.1:8080/clip.mp4"
        var machine = PlaybackStateMachine()
        machine.handle(.play)
        machine.handle(.itemOpened(index: 0, url: url))
        let started = machine.handle(.itemReady(duration: nil, naturalWidth: nil, naturalHeight: nil))
        #expect(started.first == .itemStarted(index: 0, url: "http://user:***@127.0.0.1:8080/clip.mp4"))
        let failed = machine.handle(.itemFailed(PlaybackError(url: url, reason: "could not open \(url)")))
        let shown = "http://user:***@127.0.0.1:8080/clip.mp4"
        #expect(failed == [.error(message: "\(shown): could not open \(shown)"),
                           .itemEnded(index: 0, url: shown, reason: .playbackError, message: "could not open \(shown)")])
    }
}
