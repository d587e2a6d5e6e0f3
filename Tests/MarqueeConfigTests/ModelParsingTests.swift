import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

@Suite struct ModelParsingTests {
    @Test(arguments: [
        ("auto", DisplayConfiguration.Output.auto),
        ("drm", .drm(device: nil)),
        ("drm:/dev/dri/card1", .drm(device: "/dev/dri/card1")),
        ("headless", .headless(size: nil)),
        ("headless:1280x720", .headless(size: .init(width: 1280, height: 720))),
    ])
    func outputsParseAndPrintBack(text: String, output: DisplayConfiguration.Output) {
        #expect(DisplayConfiguration.Output(parsing: text) == output)
        #expect(output.description == text)
    }

    @Test(arguments: ["", "tv", "drm:", "headless:", "headless:1280", "headless:0x720", "auto:x"])
    func badOutputsAreRefused(text: String) {
        #expect(DisplayConfiguration.Output(parsing: text) == nil)
    }

    @Test(arguments: [
        ("preferred", DisplayConfiguration.Mode.preferred),
        ("1920x1080", .size(.init(width: 1920, height: 1080), refreshRate: nil)),
        ("1920x1080@60", .size(.init(width: 1920, height: 1080), refreshRate: 60)),
        ("3840x2160@59.94", .size(.init(width: 3840, height: 2160), refreshRate: 59.94)),
    ])
    func modesParseAndPrintBack(text: String, mode: DisplayConfiguration.Mode) {
        #expect(DisplayConfiguration.Mode(parsing: text) == mode)
        #expect(mode.description == text)
    }

    @Test(arguments: ["1920", "1920x", "x1080", "1920x1080@", "1920x1080@-60", "1920x1080@sixty", "99999x1080", "1920x1080@60@60"])
    func badModesAreRefused(text: String) {
        #expect(DisplayConfiguration.Mode(parsing: text) == nil)
    }

    @Test(arguments: [
        ("8192x8192", 67_108_864),
        ("4000x3000", 12_000_000),
        ("16384x4096", 67_108_864),
        ("67108864", 67_108_864),
    ])
    func imagePixelLimitsParseAndPrintBack(text: String, pixels: Int) throws {
        let limit = try #require(ImagePixelLimit(parsing: text))
        #expect(limit.pixelCount == pixels)
        #expect(limit.description == text)
        #expect(limit.refuses(PixelSize(width: pixels, height: 1)) == false)
        #expect(limit.refuses(PixelSize(width: pixels + 1, height: 1)))
    }

    @Test(arguments: ["", "0", "0x8192", "8192x", "x8192", "8192x8192x1", "-1", "8k", "8192 x 8192", "99999999999", "65536x65536"])
    func badImagePixelLimitsAreRefused(text: String) {
        #expect(ImagePixelLimit(parsing: text) == nil)
    }

    @Test func coloursAreSixHexDigits() {
        #expect(RGBColor(parsing: "#0a0B0c") == .init(red: 10, green: 11, blue: 12))
        #expect(RGBColor(parsing: "#0a0B0c")?.description == "#0A0B0C")
        for bad in ["000000", "#000", "#0000000", "#00000g", "#+12345"] {
            #expect(RGBColor(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: ["ftp://host/a.mp4", "rtmp://host/live", "data:video/mp4;base64,AA", "concat:a.mp4|b.mp4",
                      "subfile:,,start,0,end,0,,:a.mp4", "smb://nas/a.mp4"])
    func onlyFilesAndHTTPAreAccepted(text: String) throws {
        let result = MediaLocation.resolve(text, relativeTo: URL(fileURLWithPath: "/srv/config"))
        let scheme = try #require(text.split(separator: ":").first)
        #expect(result == .failure(MediaLocationError(
            message: "unsupported URL scheme '\(scheme)' (use a file path, http or https)")))
    }

    @Test func locationsResolve() {
        let base = URL(fileURLWithPath: "/srv/config", isDirectory: true)
        #expect(MediaLocation.resolve("a.mp4", relativeTo: base) == .success(.file(path: "/srv/config/a.mp4")))
        #expect(MediaLocation.resolve("../media/a.mp4", relativeTo: base) == .success(.file(path: "/srv/media/a.mp4")))
        #expect(MediaLocation.resolve("HTTPS://example.net/a.mp4", relativeTo: base)
                == .success(.remote(URL(string: "HTTPS://example.net/a.mp4")!)))
        #expect(MediaLocation.resolve("http://", relativeTo: base) == .failure(MediaLocationError(message: "invalid URL 'http://'")))
        #expect(MediaLocation.resolve("  ", relativeTo: base) == .failure(MediaLocationError(message: "url is empty")))
    }

    @Test func configurationsEncodeToTheirConfigSpelling() throws {
        let configuration = MarqueeConfiguration(
            playlist: PlaylistConfiguration(items: [
                PlaylistItemConfiguration(location: .file(path: "/m/a.mp4"), start: MediaTime(11, per: 10),
                                          end: MediaTime(seconds: 30), title: "A"),
            ]),
            display: DisplayConfiguration(output: .headless(size: .init(width: 640, height: 360)),
                                          mode: .size(.init(width: 640, height: 360), refreshRate: 59.94)),
            input: InputConfiguration(keyOverrides: [KeyName("kp5")!: .stop]),
            source: URL(fileURLWithPath: "/m/config.yaml"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]

        let data = try encoder.encode(configuration)
        let json = try #require(String(data: data, encoding: .utf8))

        #expect(json.contains(#""items":[{"end":"30","start":"1.1","title":"A","url":"/m/a.mp4"}]"#))
        #expect(json.contains(#""repeat":"all""#))
        #expect(json.contains(#""output":"headless:640x360""#))
        #expect(json.contains(#""mode":"640x360@59.94""#))
        #expect(json.contains(##""background":"#000000""##))
        #expect(json.contains(#""keys":{"KEY_KP5":"stop"}"#))
        #expect(try JSONDecoder().decode(MarqueeConfiguration.self, from: data) == configuration)
    }

    @Test(arguments: [
        ("config.yaml", ConfigurationFormat.yaml), ("a/b.YML", .yaml), ("x.json", .json), ("x.m3u", .m3u),
        ("x.m3u8", .m3u), ("x.conf", .yaml), ("noextension", .yaml), ("dir.json/config", .yaml),
    ])
    func formatFollowsTheExtension(path: String, format: ConfigurationFormat) {
        #expect(ConfigurationFormat(path: path) == format)
    }
}
