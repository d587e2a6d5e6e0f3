extension Canvas {
    /// A copy of `buffer` (read across its stride), turned clockwise by `rotation`: how a screenshot
    /// shows what a plane that turns in hardware puts on screen from an unturned buffer.
    ///
    /// The only allocation is the canvas itself; `buffer` is read once, row by row.
    public convenience init(copying buffer: PixelBuffer, turnedClockwise rotation: Rotation = .none) {
        let source = buffer.size
        self.init(size: source.rotated(by: rotation))
        let width = size.width
        withPixelBuffer { destination in
            if rotation == .none {
                buffer.copy(to: destination)
                return
            }
            let pixels = destination.baseAddress.assumingMemoryBound(to: UInt32.self)
            for y in 0..<source.height {
                let row = (buffer.baseAddress + y * buffer.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                for x in 0..<source.width {
                    // Where source pixel (x, y) lands once the picture is turned clockwise.
                    let (tx, ty): (Int, Int)
                    switch rotation {
                    case .none: (tx, ty) = (x, y)
                    case .clockwise90: (tx, ty) = (source.height - 1 - y, x)
                    case .upsideDown: (tx, ty) = (source.width - 1 - x, source.height - 1 - y)
                    case .clockwise270: (tx, ty) = (y, source.width - 1 - x)
                    }
                    pixels[ty * width + tx] = row[x]
                }
            }
        }
    }
}
