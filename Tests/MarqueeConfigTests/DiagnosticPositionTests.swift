import Foundation
import MarqueeConfig
import Testing

/// Each broken config yields exactly one error, at the key or value at fault.
@Suite struct DiagnosticPositionTests {
    static let cases: [BrokenConfigCase] = [
        BrokenConfigCase("items is not a list", """
            playlist:
              items: intro.mp4
            """, line: 2, column: 10, message: "expected a list of items, found 'intro.mp4'"),
        BrokenConfigCase("misspelt key suggests the right one", """
            playlist:
              repaet: all
              items:
                - url: a.mp4
            """, line: 2, column: 3, message: "unknown key 'repaet' in playlist; did you mean 'repeat'?"),
        BrokenConfigCase("unknown key far from any known one lists them", """
            playlist:
              items:
                - url: a.mp4
            video:
              output: auto
            """, line: 4, column: 1, message: "unknown key 'video' in the config (expected 'playlist', 'playlists', 'schedule', 'display', 'audio', 'input', 'network', 'control', 'mqtt', 'osd', 'log', 'source', 'cache', 'sync', 'displays', 'media', 'proofOfPlay', 'device', 'resume' or 'metrics')"),
        BrokenConfigCase("bad time string", """
            playlist:
              items:
                - url: a.mp4
                  start: "1:75"
            """, line: 4, column: 14, message: "bad time '1:75': seconds must be below 60"),
        BrokenConfigCase("time that is not a time at all", """
            playlist:
              items:
                - url: a.mp4
                  duration: ten
            """, line: 4, column: 17, message: "bad time 'ten'"),
        BrokenConfigCase("time with more digits than fit", """
            playlist:
              items:
                - url: a.mp4
                  start: 999999999999.999999999
            """, line: 4, column: 14, message: "bad time '999999999999.999999999': expected seconds"),
        BrokenConfigCase("end before start", """
            playlist:
              items:
                - url: a.mp4
                  start: 10
                  end: "0:05"
            """, line: 5, column: 12, message: "end (0:05.000) must be after start (0:10.000)"),
        BrokenConfigCase("end equal to start", """
            playlist:
              items:
                - url: a.mp4
                  start: 1:02:03.250
                  end: 3723.25
            """, line: 5, column: 12, message: "end (1:02:03.250) must be after start (1:02:03.250)"),
        BrokenConfigCase("end at zero without a start", """
            playlist:
              items:
                - url: a.mp4
                  end: 0
            """, line: 4, column: 12, message: "end (0:00.000) must be after start (0:00.000)"),
        BrokenConfigCase("end and duration together", """
            playlist:
              items:
                - url: a.mp4
                  end: 20
                  duration: 5
            """, line: 5, column: 7, message: "give either 'end' or 'duration', not both"),
        BrokenConfigCase("zero duration", """
            playlist:
              items:
                - url: a.png
                  duration: "0:00"
            """, line: 4, column: 17, message: "duration (0:00.000) must be greater than zero"),
        BrokenConfigCase("unknown command", """
            playlist:
              items: [a.mp4]
            input:
              keys:
                KEY_KP5: jump
            """, line: 5, column: 14, message: "unknown command 'jump' (commands: play, pause, togglePlayPause"),
        BrokenConfigCase("misspelt command", """
            playlist:
              items: [a.mp4]
            input:
              keys:
                KEY_KP5: toglePlayPause
            """, line: 5, column: 14, message: "unknown command 'toglePlayPause'; did you mean 'togglePlayPause'?"),
        BrokenConfigCase("unknown key name", """
            playlist:
              items: [a.mp4]
            input:
              keys:
                KEY_FOO: play
            """, line: 5, column: 5, message: "unknown key name 'KEY_FOO'"),
        BrokenConfigCase("misspelt key name", """
            playlist:
              items: [a.mp4]
            input:
              keys:
                KEY_PLAYPAUS: play
            """, line: 5, column: 5, message: "unknown key name 'KEY_PLAYPAUS'; did you mean 'KEY_PLAYPAUSE'?"),
        BrokenConfigCase("unknown key name unbound", """
            playlist:
              items: [a.mp4]
            input:
              keys:
                KEY_ESCAPE: none
            """, line: 5, column: 5, message: "unknown key name 'KEY_ESCAPE'; did you mean 'KEY_ESC'?"),
        BrokenConfigCase("misspelt none", """
            playlist:
              items: [a.mp4]
            input:
              keys:
                KEY_ESC: nnoe
            """, line: 5, column: 14, message: "unknown command 'nnoe'; did you mean 'none'?"),
        BrokenConfigCase("quit bound to a key", """
            playlist:
              items: [a.mp4]
            input:
              keys:
                KEY_Q: quit
            """, line: 5, column: 12, message: "quit cannot be bound to a key"),
        BrokenConfigCase("unknown keymap", """
            playlist:
              items: [a.mp4]
            input:
              keymap: empty
            """, line: 4, column: 11, message: "unknown keymap 'empty' (expected default or none)"),
        BrokenConfigCase("misspelt keymap", """
            playlist:
              items: [a.mp4]
            input:
              keymap: defualt
            """, line: 4, column: 11, message: "unknown keymap 'defualt'; did you mean 'default'?"),
        BrokenConfigCase("keymap that is a list", """
            playlist:
              items: [a.mp4]
            input:
              keymap: [none]
            """, line: 4, column: 11, message: "expected a keymap (default or none), found a list"),
        BrokenConfigCase("stop timeout that is not a time", """
            playlist:
              items: [a.mp4]
            input:
              stopTimeout: never
            """, line: 4, column: 16, message: "bad time 'never'"),
        BrokenConfigCase("negative stop timeout", """
            playlist:
              items: [a.mp4]
            input:
              stopTimeout: -5
            """, line: 4, column: 16, message: "times cannot be negative"),
        BrokenConfigCase("empty stop timeout", """
            playlist:
              items: [a.mp4]
            input:
              stopTimeout:
            """, line: 4, column: 15, message: "expected none or a time (seconds or [hh:]mm:ss[.fff]), found nothing"),
        BrokenConfigCase("bad repeat mode", """
            playlist:
              repeat: loop
              items: [a.mp4]
            """, line: 2, column: 11, message: "unknown repeat mode 'loop' (expected off, one, all or shuffle)"),
        BrokenConfigCase("bad item scaling mode", """
            playlist:
              items:
                - url: a.mp4
                  scaling: aspectFitt
            """, line: 4, column: 16, message: "unknown scaling mode 'aspectFitt'; did you mean 'aspectFit'? (expected none, aspectFit, aspectFill or fill)"),
        BrokenConfigCase("bad image pixel limit", """
            playlist:
              items: [a.mp4]
            display:
              maxImagePixels: 8k
            """, line: 4, column: 19, message: "bad maxImagePixels '8k' (expected WIDTHxHEIGHT or a pixel count, e.g. 8192x8192)"),
        BrokenConfigCase("bad display scaling mode", """
            playlist:
              items: [a.mp4]
            display:
              scaling: stretch
            """, line: 4, column: 12, message: "unknown scaling mode 'stretch' (expected none, aspectFit, aspectFill or fill)"),
        BrokenConfigCase("volume above 1", """
            playlist:
              items: [a.mp4]
            audio:
              volume: 1.5
            """, line: 4, column: 11, message: "volume 1.5 is out of range (expected 0 to 1)"),
        BrokenConfigCase("buffer time too long", """
            playlist:
              items: [a.mp4]
            audio:
              bufferTime: 5
            """, line: 4, column: 15, message: "bufferTime 5 s is out of range (expected 0.005 to 2 seconds)"),
        BrokenConfigCase("period longer than half the buffer", """
            playlist:
              items: [a.mp4]
            audio:
              bufferTime: 0.1
              periodTime: 0.08
            """, line: 5, column: 15, message: "periodTime 0.08 s is out of range (expected 0.001 s to half the bufferTime, 0.05 s)"),
        BrokenConfigCase("negative read-ahead", """
            playlist:
              items: [a.mp4]
            network:
              readAhead: -2
            """, line: 4, column: 14, message: "readAhead -2 s is out of range (expected 0 to 600 seconds)"),
        BrokenConfigCase("read-ahead that is not a number", """
            playlist:
              items: [a.mp4]
            network:
              readAhead: 10s
            """, line: 4, column: 14, message: "expected a number, found '10s'"),
        BrokenConfigCase("misspelt network key", """
            playlist:
              items: [a.mp4]
            network:
              readahead: 5
            """, line: 4, column: 3, message: "unknown key 'readahead' in network; did you mean 'readAhead'?"),
        BrokenConfigCase("volume that is not a number", """
            playlist:
              items: [a.mp4]
            audio:
              volume: loud
            """, line: 4, column: 11, message: "expected a number, found 'loud'"),
        BrokenConfigCase("bad colour", """
            playlist:
              items: [a.mp4]
            display:
              background: "#12345"
            """, line: 4, column: 15, message: "bad colour '#12345' (expected #RRGGBB"),
        BrokenConfigCase("unquoted colour becomes a comment", """
            playlist:
              items: [a.mp4]
            display:
              background: #102030
            """, line: 4, column: 14, message: "quote it: # starts a comment in YAML"),
        BrokenConfigCase("bad mode", """
            playlist:
              items: [a.mp4]
            display:
              mode: 1920x1080@fast
            """, line: 4, column: 9, message: "bad mode '1920x1080@fast' (expected preferred, WIDTHxHEIGHT or WIDTHxHEIGHT@RATE"),
        BrokenConfigCase("bad output", """
            playlist:
              items: [a.mp4]
            display:
              output: "headless:big"
            """, line: 4, column: 11, message: "unknown output 'headless:big'"),
        BrokenConfigCase("rotation not a multiple of 90", """
            playlist:
              items: [a.mp4]
            display:
              rotation: 45
            """, line: 4, column: 13, message: "rotation 45 is not a multiple of 90 (expected 0, 90, 180 or 270)"),
        BrokenConfigCase("unknown modesetting", """
            playlist:
              items: [a.mp4]
            display:
              modesetting: atomic
            """, line: 4, column: 16, message: "unknown modesetting 'atomic'"),
        BrokenConfigCase("unknown log level", """
            playlist:
              items: [a.mp4]
            log:
              level: verbose
            """, line: 4, column: 10, message: "unknown log level 'verbose'"),
        BrokenConfigCase("grab is not a boolean", """
            playlist:
              items: [a.mp4]
            input:
              grab: sometimes
            """, line: 4, column: 9, message: "expected true or false, found 'sometimes'"),
        BrokenConfigCase("missing url", """
            playlist:
              items:
                - url: a.mp4
                - title: Menu
                  duration: 10
            """, line: 4, column: 7, message: "playlist item is missing 'url'"),
        BrokenConfigCase("empty items", """
            playlist:
              repeat: one
              items: []
            """, line: 3, column: 10, message: "the playlist has no items"),
        BrokenConfigCase("no items key", """
            playlist:
              repeat: one
            """, line: 1, column: 1, message: "playlist is missing 'items'"),
        BrokenConfigCase("no playlist", """
            display:
              output: auto
            """, line: 1, column: 1, message: "missing 'playlist'"),
        BrokenConfigCase("ftp scheme", """
            playlist:
              items:
                - url: ftp://example.net/a.mp4
            """, line: 3, column: 12, message: "unsupported URL scheme 'ftp' (use a file path, http or https)"),
        BrokenConfigCase("concat protocol", """
            playlist:
              items:
                - url: "concat:a.mp4|b.mp4"
            """, line: 3, column: 12, message: "unsupported URL scheme 'concat'"),
        BrokenConfigCase("data URL", """
            playlist:
              items:
                - data:video/mp4;base64,AAAA
            """, line: 3, column: 7, message: "unsupported URL scheme 'data'"),
        BrokenConfigCase("YAML syntax error", """
            playlist:
              items:
                - url: a.mp4
               start: 2
            """, line: 4, column: 4, message: "invalid YAML: did not find expected key"),
        BrokenConfigCase("unterminated quote", """
            playlist:
              items:
                - url: "a.mp4
            """, line: 3, column: 18,
            message: "invalid YAML: found unexpected end of stream (while scanning a quoted scalar at line 3, column 12)"),
        BrokenConfigCase("duplicate key", """
            playlist:
              repeat: all
              items: [a.mp4]
              repeat: one
            """, line: 4, column: 3, message: "duplicate key 'repeat' (first given at line 2)"),
        BrokenConfigCase("duplicate key in a flow mapping", """
            playlist:
              items:
                - {url: a.mp4, title: A, url: b.mp4}
            """, line: 3, column: 30, message: "duplicate key 'url' (first given at line 3)"),
        BrokenConfigCase("JSON with a bad time", fileName: "config.json", """
            {
              "playlist": {
                "items": [
                  {"url": "a.mp4", "start": "two"}
                ]
              }
            }
            """, line: 4, column: 33, message: "bad time 'two'"),
        BrokenConfigCase("JSON with tabs and a wrong type", fileName: "config.json",
            "{\n\t\"playlist\": {\n\t\t\"repeat\": \"all\",\n\t\t\"items\": {\"url\": \"a.mp4\"}\n\t}\n}\n",
            line: 4, column: 12, message: "expected a list of items, found a mapping"),
        BrokenConfigCase("compact JSON duplicate key", fileName: "config.json",
            #"{"playlist":{"items":[{"url":"a.mp4","url":"b.mp4"}]}}"#,
            line: 1, column: 38, message: "duplicate key 'url'"),
        BrokenConfigCase("unknown extension is read as YAML", fileName: "config.conf", """
            playlist:
              items: [a.mp4]
              seed: -1
            """, line: 3, column: 9, message: "expected a whole number from 0 to 18446744073709551615"),
    ]

    @Test(arguments: cases)
    func reportsTheProblemWhereItIs(_ broken: BrokenConfigCase) throws {
        try broken.expectReportedWhereItIs()
    }
}
