import CLua
import TraitKit

/// Argument helpers for node methods.
enum NodeArgs {
    static func node(_ L: LuaState, _ i: Int32 = 1, _ function: String) throws -> TraitEnvironment {
        try LuaObject.check(L, i, TraitEnvironment.self, function, expected: "a node")
    }

    static func view(_ L: LuaState, _ i: Int32 = 1, _ function: String) throws -> View {
        try LuaObject.check(L, i, View.self, function, expected: "a View")
    }

    static func controller(_ L: LuaState, _ i: Int32 = 1, _ function: String) throws -> ViewController {
        try LuaObject.check(L, i, ViewController.self, function, expected: "a ViewController")
    }

    static func optional<T: AnyObject>(_ L: LuaState, _ i: Int32, _ type: T.Type, _ function: String,
                                       expected: String) throws -> T? {
        if isNil(L, i) { return nil }
        return try LuaObject.check(L, i, type, function, expected: expected)
    }

    /// Pushes a node (or nil).
    static func push(_ L: LuaState, _ node: TraitEnvironment?) {
        LuaObject.push(L, node, .node)
    }

    /// Pushes a Lua list of nodes.
    static func pushList(_ L: LuaState, _ nodes: [TraitEnvironment]) {
        lua_createtable(L, Int32(nodes.count), 0)
        for (n, node) in nodes.enumerated() {
            LuaObject.push(L, node, .node)
            lua_rawseti(L, -2, lua_Integer(n + 1))
        }
    }

    /// An enum value of a system trait from a string (`"dark"`), or nil for nil.
    static func style(_ L: LuaState, _ i: Int32) throws -> UserInterfaceStyle {
        if isNil(L, i) { return .unspecified }
        let value = try TraitValues.value(L, i, for: SystemTraits.userInterfaceStyle)
        return UserInterfaceStyle(traitValue: value) ?? .unspecified
    }
}
