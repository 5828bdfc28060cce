import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the current document (server only; browsers hide nonce
 * values from the DOM, so on the client it is empty and that is fine).
 */
export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
