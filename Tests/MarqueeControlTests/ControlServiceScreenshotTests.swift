import Foundation
import MarqueeCore
import Testing
@testable import MarqueeControl

/// `screenshot` with `width` and `format`: the picture scaled and encoded as asked, under its
/// format's name; through a broker never wider than 1920 unless asked for less; a file written as
/// `path` is a PNG, and writing one still needs admin.
@Suite struct ControlServiceScreenshotTests {
    let player = StandInPlayer()
    let host = StandInHost()
    let transport = RecordingTransport()
    let service: ControlService

    init() {
        service = ControlService(player: player, host: host, log: { _ in })
        service.attach(transport)
        player.screenSize = PixelSize(width: 3840, height: 2160)
    }

    private func ask(_ line: String, over source: CommandSource? = nil, role: ControlRole = .control) -> [String: Any] {
        let peer = source.map { ControlPeer(id: ControlPeer.allocateID(), source: $0, role: role) }
            ?? ControlPeer(id: ControlPeer.allocateID(), uid: 1000, gid: 1000, pid: 42, role: role)
        if source == nil { service.connected(peer) } else { service.connected(peer, via: transport) }
        service.handle(.line(line), from: peer)
        return transport.waitForObjects(1, for: peer.id).last ?? [:]
    }

    @Test func aWidthAndFormatGiveAScaledPictureUnderItsFormatsName() {
        let reply = ask(#"{"command":"screenshot","width":320,"format":"jpeg"}"#, role: .observe)
        #expect(reply["ok"] as? Bool == true && reply["format"] as? String == "jpeg", "\(reply)")
        #expect(reply["width"] as? Int == 320 && reply["height"] as? Int == 180 && reply["bytes"] as? Int == 3)
        #expect(reply["jpeg"] as? String == Data([0xFF, 0xD8, 0xFF]).base64EncodedString() && reply["png"] == nil)
    }

    @Test func overMQTTAPictureIsNeverWiderThan1920UnlessAskedForLess() {
        let mqtt = CommandSource.mqtt(topic: "marquee/lobby/command")
        let capped = ask(#"{"command":"screenshot"}"#, over: mqtt)
        #expect(capped["ok"] as? Bool == true && capped["width"] as? Int == 1920 && capped["height"] as? Int == 1080, "\(capped)")
        #expect(capped["format"] as? String == "png" && capped["png"] != nil)
        let asked = ask(#"{"command":"screenshot","width":640}"#, over: mqtt)
        #expect(asked["width"] as? Int == 640 && asked["height"] as? Int == 360, "\(asked)")
        // The socket's `marquee ctl screenshot -o` gets the whole screen.
        let whole = ask(#"{"command":"screenshot"}"#)
        #expect(whole["width"] as? Int == 3840 && whole["height"] as? Int == 2160, "\(whole)")
    }

    @Test func aFileIsAPNGAndStillNeedsAdmin() {
        let refused = ask(#"{"command":"screenshot","path":"now.png","width":640}"#, over: .mqtt(topic: "marquee/lobby/command"))
        #expect(refused["ok"] as? Bool == false && (refused["error"] as? String)?.contains("needs the admin role") == true, "\(refused)")
        let written = ask(#"{"command":"screenshot","path":"now.png","width":640}"#, role: .admin)
        #expect(written["path"] as? String == "/var/lib/marquee/screenshots/now.png" && written["width"] as? Int == 640, "\(written)")
        let jpegFile = ask(#"{"command":"screenshot","path":"now.jpg","format":"jpeg"}"#, role: .admin)
        #expect((jpegFile["error"] as? String)?.contains("a file written as path is a PNG") == true, "\(jpegFile)")
        let tooWide = ask(#"{"command":"screenshot","width":4000}"#)
        #expect((tooWide["error"] as? String)?.contains("'width'") == true, "\(tooWide)")
    }
}
