import CLua
import TraitKit

/// `__tostring` for engine objects.
let objectToString: SwiftLuaFunction = { L in
    guarded(L) { L in
        guard let box = LuaObject.box(L, 1) else {
            throw argumentError(L, 1, "__tostring", expected: "a TraitKit object")
        }
        if box.pointee.kind == LuaObject.Kind.overrides.rawValue, let node = LuaObject.overridesNode(L, 1) {
            push(L, node.traitOverridesIfAny?.description ?? "<TraitOverrides>")
            return 1
        }
        guard let raw = box.pointee.object else { push(L, "<collected object>"); return 1 }
        push(L, LuaRuntime.describe(Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue()))
        return 1
    }
}

/// `__eq`: collections and static colors compare by value, everything else by identity.
let objectEquals: SwiftLuaFunction = { L in
    guarded(L) { L in
        let a = LuaObject.peek(L, 1), b = LuaObject.peek(L, 2)
        if let a = a as? TraitCollection, let b = b as? TraitCollection {
            lua_pushboolean(L, a == b ? 1 : 0)
        } else if let a = a as? Color, let b = b as? Color {
            lua_pushboolean(L, a == b ? 1 : 0)
        } else {
            lua_pushboolean(L, a != nil && a === b ? 1 : 0)
        }
        return 1
    }
}

extension LuaRuntime {
    static func describe(_ object: AnyObject) -> String {
        switch object {
        case let node as TraitEnvironment: return "<\(node.debugName)>"
        case let custom as CustomStringConvertible: return custom.description
        default: return "<\(LuaObject.className(object))>"
        }
    }
}
